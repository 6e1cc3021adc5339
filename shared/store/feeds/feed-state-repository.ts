import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import { FEED_NAMES, type FeedName, isFeedName } from '../../domain/feeds/declarations';
import type { FeedState } from '../../domain/feeds/status';
import { isSingleWriteConditionFailure } from '../condition-failures';
import { documentClientFor } from '../dynamo-client';
import { tableName } from '../tables';

/**
 * The feeds' states in the intel table: one small item per feed (pk `FEED`, sk `<NAME>`), so the
 * admin list and the tool step read every feed's state with one Query. The indicators themselves are
 * never DynamoDB items: they are in the compiled sets (feed-objects.ts).
 */
const FEED_PK = 'FEED';

const FIELDS = [
  'last_refreshed_at',
  'last_attempt_at',
  'outcome',
  'error',
  'indicator_count',
  'rejected',
  'validators',
  'version',
  'object_key',
  'source_generated_at',
] as const satisfies readonly (keyof FeedState)[];

export type FeedSave = { written: true; replaced: FeedState | undefined } | { written: false };

function stateOf(name: FeedName, item: Record<string, unknown>): FeedState {
  const state: FeedState = { name };
  for (const field of FIELDS) {
    if (item[field] !== undefined) (state as unknown as Record<string, unknown>)[field] = item[field];
  }
  return state;
}

export class FeedStateRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Every feed's state (a feed never refreshed has only its name). */
  async all(): Promise<Record<FeedName, FeedState>> {
    const out = Object.fromEntries(FEED_NAMES.map((name) => [name, { name }])) as Record<FeedName, FeedState>;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': FEED_PK },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const name = String(item.sk);
        if (!isFeedName(name)) continue;
        out[name] = stateOf(name, item);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return out;
  }

  /**
   * Records the state unless a newer set's state is already stored (versions are ISO times, ordered
   * as strings): a slower simultaneous refresh never puts the feed back to an older copy. Returns
   * whether it was written and, if so, the state it replaced (whose set the caller may now delete).
   */
  async save(state: FeedState): Promise<FeedSave> {
    const item: Record<string, unknown> = { pk: FEED_PK, sk: state.name };
    for (const field of FIELDS) if (state[field] !== undefined) item[field] = state[field];
    try {
      const { Attributes: old } = await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          ReturnValues: 'ALL_OLD',
          ...(state.version === undefined
            ? { ConditionExpression: 'attribute_not_exists(version)' }
            : {
                ConditionExpression: 'attribute_not_exists(version) OR version <= :version',
                ExpressionAttributeValues: { ':version': state.version },
              }),
        }),
      );
      return { written: true, replaced: old ? stateOf(state.name, old) : undefined };
    } catch (error) {
      if (isSingleWriteConditionFailure(error)) return { written: false };
      throw error;
    }
  }
}

export function feedStateRepositoryFromConfig(
  cfg: Config,
  doc = documentClientFor(cfg),
): FeedStateRepository {
  return new FeedStateRepository(doc, tableName(cfg, 'intel'));
}
