import { type DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../tables';

/**
 * What limits how many investigations a caller (an API key or a console user) starts, in the
 * sessions table:
 *
 * - running   the open markers of the sparse gsi1 (`gsi1pk OPEN`, `gsi1sk <created_at>#<session_id>`,
 *             sessions-repository.ts), which carry the owner: the caller's running sessions are one
 *             Query of the markers created since a cutoff (the workflow's timeout: an older marker is a
 *             session the sweeper ends, or a marker whose delete failed), filtered by owner, counted.
 *             No write of its own: a session that ends deletes its marker.
 * - starts    pk `STARTS#<ownerKeyId>`, sk `<UTC day>`: investigations started that day, taken
 *             atomically against the daily quota (one conditional update per start, or per batch), deleted
 *             by TTL.
 */
const OPEN = 'OPEN';
const startsKey = (ownerKeyId: string, day: string) => ({ pk: `STARTS#${ownerKeyId}`, sk: day });

export class StartLimitsRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The owner's sessions not yet ended, created after `since` (ISO); counting stops at `atMost`. */
  async runningCount(ownerKeyId: string, since: string, atMost: number): Promise<number> {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: GSI1.indexName,
          KeyConditionExpression: '#gpk = :open AND #gsk > :since',
          FilterExpression: 'owner_key_id = :owner',
          ExpressionAttributeNames: { '#gpk': GSI1.partitionKey, '#gsk': GSI1.sortKey },
          ExpressionAttributeValues: { ':open': OPEN, ':since': since, ':owner': ownerKeyId },
          Select: 'COUNT',
          ExclusiveStartKey: start,
        }),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start && count < atMost);
    return count;
  }

  /** Counts one start against the day's quota; false (nothing counted) when it is spent. */
  async takeDailyStart(
    ownerKeyId: string,
    day: string,
    limit: number,
    expiresAtEpoch: number,
  ): Promise<boolean> {
    return this.tryTake(ownerKeyId, day, limit, 1, expiresAtEpoch);
  }

  /**
   * Counts up to `wanted` starts at once (a batch) against the day's quota; how many it counted
   * (0 when the quota is spent). One conditional update when they all fit; else it reads what is
   * left and takes that, again if another start took some meanwhile.
   */
  async takeDailyStarts(
    ownerKeyId: string,
    day: string,
    limit: number,
    wanted: number,
    expiresAtEpoch: number,
  ): Promise<number> {
    let taking = Math.min(wanted, limit);
    for (let attempt = 0; taking > 0 && attempt < 10; attempt++) {
      if (await this.tryTake(ownerKeyId, day, limit, taking, expiresAtEpoch)) return taking;
      const { Item } = await this.doc.send(
        new GetCommand({ TableName: this.table, Key: startsKey(ownerKeyId, day), ConsistentRead: true }),
      );
      taking = Math.min(wanted, limit - Number(Item?.starts ?? 0));
    }
    return 0;
  }

  private async tryTake(
    ownerKeyId: string,
    day: string,
    limit: number,
    count: number,
    expiresAtEpoch: number,
  ): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: startsKey(ownerKeyId, day),
          UpdateExpression: 'ADD starts :count SET expires_at_epoch = :expires',
          ConditionExpression: 'attribute_not_exists(starts) OR starts <= :room',
          ExpressionAttributeValues: { ':count': count, ':room': limit - count, ':expires': expiresAtEpoch },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
}
