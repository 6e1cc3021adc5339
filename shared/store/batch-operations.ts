import { setTimeout as pause } from 'node:timers/promises';
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// DynamoDB's multi-item calls, each retrying what the table left unprocessed with a growing pause.

/**
 * The items of `keys` in one table, read consistently: one BatchGetItem per 100 keys, unprocessed
 * keys asked again with a growing pause. Absent items are simply not returned.
 */
export async function consistentBatchGet(
  doc: DynamoDBDocumentClient,
  table: string,
  keys: readonly Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + 100);
    for (let round = 0; pending && pending.length > 0; round++) {
      if (round > 0) await pause(Math.min(1000, 25 * 2 ** round));
      const result = await doc.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...(result.Responses?.[table] ?? []));
      pending = result.UnprocessedKeys?.[table]?.Keys as Record<string, unknown>[] | undefined;
    }
  }
  return items;
}

/** BatchWriteItem's limit of requests per call. */
const BATCH_WRITE_SIZE = 25;

/**
 * Writes the requests (PutRequest / DeleteRequest) in BatchWriteItem calls of 25, all chunks at
 * once, each sending its unprocessed items again with a growing pause (DynamoDB's throttling
 * answer) until none is left. Unconditional: callers use it where no condition is needed.
 */
export async function batchWriteAll(
  doc: DynamoDBDocumentClient,
  table: string,
  requests: readonly Record<string, unknown>[],
): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_SIZE)
    chunks.push(requests.slice(i, i + BATCH_WRITE_SIZE));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: Record<string, unknown>[] | undefined = chunk;
      for (let round = 0; pending && pending.length > 0; round++) {
        if (round > 0) await pause(Math.min(2_000, 25 * 2 ** round));
        const result = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
        pending = result.UnprocessedItems?.[table] as Record<string, unknown>[] | undefined;
      }
    }),
  );
}
