import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { BatchRecord } from '../../domain/investigation/batch';
import { consistentBatchGet } from '../batch-operations';
import { live, sessionTtl } from '../retention/retention-ttl';
import { batchKey, sessionKey, toSession } from './keys';
import type { SessionRecord } from './records';

/**
 * Batches of investigations (pk BATCH#<id>, sk META): written once, after their sessions were
 * created, and read back with those sessions' records (one BatchGetItem per 100 sessions).
 */
export class BatchRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(batch: BatchRecord): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...batchKey(batch.batch_id), ...batch, ...sessionTtl(batch.batch_id) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(batchId: string): Promise<BatchRecord | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: batchKey(batchId), ConsistentRead: true }),
    );
    if (!live(Item)) return undefined;
    const { pk: _pk, sk: _sk, expires_at_epoch: _ttl, ...batch } = Item!;
    return batch as BatchRecord;
  }

  /** The records of the given sessions, by session ID (an absent one is left out). */
  async sessions(sessionIds: readonly string[]): Promise<Map<string, SessionRecord>> {
    const items = await consistentBatchGet(this.doc, this.tableName, sessionIds.map(sessionKey));
    const sessions = items
      .map((item) => toSession(live(item)))
      .filter((s): s is SessionRecord => s !== undefined);
    return new Map(sessions.map((session) => [session.session_id, session]));
  }
}
