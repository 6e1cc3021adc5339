import { setTimeout as pause } from 'node:timers/promises';
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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
