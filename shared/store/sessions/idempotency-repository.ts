import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { isSingleWriteConditionFailure } from '../condition-failures';
import { idempotencyKey } from './keys';
import type { IdempotencyRecord } from './records';

/**
 * Idempotency-Key records of start requests (pk IDEMP#<keyId>#<key>, TTL 24 h). The record is
 * written in the transaction that creates its session (`idempotencyPut`, SessionsRepository.create).
 */
export function idempotencyPut(tableName: string, record: IdempotencyRecord) {
  return {
    Put: {
      TableName: tableName,
      Item: { ...idempotencyKey(record.owner_key_id, record.idempotency_key), ...record },
      // DynamoDB deletes expired items lazily (up to days later): expired counts as absent.
      ConditionExpression: 'attribute_not_exists(pk) OR expires_at_epoch < :now',
      ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
    },
  };
}

/** The key's record, unless it has expired (read consistently). */
export async function readIdempotency(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keyId: string,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  const { Item } = await doc.send(
    new GetCommand({ TableName: tableName, Key: idempotencyKey(keyId, key), ConsistentRead: true }),
  );
  if (!Item || Number(Item.expires_at_epoch) < Math.floor(Date.now() / 1000)) return undefined;
  const { pk: _pk, sk: _sk, ...record } = Item;
  return record as IdempotencyRecord;
}

export class IdempotencyRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The key's record, unless it has expired. */
  get(keyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return readIdempotency(this.doc, this.tableName, keyId, key);
  }

  /** Deletes the key's record if it still names `sessionId` (a start that failed frees its key). */
  async delete(keyId: string, key: string, sessionId: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: idempotencyKey(keyId, key),
          ConditionExpression: 'session_id = :session',
          ExpressionAttributeValues: { ':session': sessionId },
        }),
      );
    } catch (error) {
      if (!isSingleWriteConditionFailure(error)) throw error;
    }
  }
}
