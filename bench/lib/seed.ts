import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export type Item = Record<string, unknown>;

const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/**
 * Loads items built by the stores' own item builders with BatchWriteItem: 25 per request,
 * `parallel` requests in flight, unprocessed items retried with backoff.
 */
export async function batchWriteAll(
  doc: DynamoDBDocumentClient,
  table: string,
  items: readonly Item[],
  parallel = 4,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (;;) {
      const start = next;
      next += 25;
      if (start >= items.length) return;
      let pending: Item[] | undefined = items
        .slice(start, start + 25)
        .map((Item) => ({ PutRequest: { Item } }));
      for (let round = 0; pending && pending.length > 0; round++) {
        if (round > 0) await pause(Math.min(1_000, 20 * 2 ** round));
        const result = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
        pending = result.UnprocessedItems?.[table] as Item[] | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}
