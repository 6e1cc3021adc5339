import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { TABLE_IDS, TABLES, type TableId } from '../../shared/store/tables';

/**
 * A fingerprint of everything a local runtime has stored: every item of its four tables, read with
 * a (test-only) Scan of DynamoDB Local. Two equal fingerprints mean no request between them changed
 * stored state. `last_used_at` is left out: an accepted key's use is recorded at most once a minute by
 * design, and that is not a change a rejected request makes.
 */
export interface StoredState {
  items: Record<TableId, number>;
  digest: string;
  /** Item digests by table, to name what changed. */
  byTable: Record<TableId, Map<string, string>>;
}

const VOLATILE = new Set(['last_used_at']);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Set) return [...value].map(canonical).sort();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => !VOLATILE.has(k))
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export async function storedState(env: Record<string, string | undefined>): Promise<StoredState> {
  const client = new DynamoDBClient({
    endpoint: env.SIS_DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const doc = DynamoDBDocumentClient.from(client);
  try {
    const items = {} as Record<TableId, number>;
    const byTable = {} as Record<TableId, Map<string, string>>;
    const whole = createHash('sha256');
    for (const id of TABLE_IDS) {
      const table = env[TABLES[id].configKey];
      if (!table) throw new Error(`no table name for ${id}`);
      const digests = new Map<string, string>();
      for await (const page of paginateScan({ client: doc }, { TableName: table, ConsistentRead: true })) {
        for (const item of page.Items ?? []) {
          const key = `${item.pk}|${item.sk}`;
          digests.set(
            key,
            createHash('sha256')
              .update(JSON.stringify(canonical(item)))
              .digest('hex'),
          );
        }
      }
      items[id] = digests.size;
      byTable[id] = digests;
      for (const key of [...digests.keys()].sort()) whole.update(`${id}:${key}:${digests.get(key)}\n`);
    }
    return { items, digest: whole.digest('hex'), byTable };
  } finally {
    client.destroy();
  }
}

/** Items added, removed or changed between two fingerprints, for a failure message. */
export function stateChanges(before: StoredState, after: StoredState): string[] {
  const changes: string[] = [];
  for (const id of TABLE_IDS) {
    const a = before.byTable[id];
    const b = after.byTable[id];
    for (const [key, digest] of b) {
      if (!a.has(key)) changes.push(`${id}: added ${key}`);
      else if (a.get(key) !== digest) changes.push(`${id}: changed ${key}`);
    }
    for (const key of a.keys()) if (!b.has(key)) changes.push(`${id}: removed ${key}`);
  }
  return changes;
}
