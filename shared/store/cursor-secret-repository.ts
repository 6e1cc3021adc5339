import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import { documentClientFor } from './dynamo-client';
import { tableName } from './tables';

/**
 * The deployment's pagination-cursor secret: one item of the keys table (pk `SETTING#cursor-secret`,
 * sk `SETTING`) holding `current` and, during a rotation, `previous`. It lives in the keys table
 * because that table already holds credentials material (key hashes) and is encrypted at rest; an
 * on-demand item costs nothing at idle, where a Secrets Manager secret cost $0.40 a month.
 *
 * The partition key is its own, so IAM can hand the functions that page exactly this item
 * (`dynamodb:LeadingKeys`, infra/constructs/function-permissions.ts) and nothing else of the table.
 * No gsi1 attributes: key listings never see it.
 */
export const CURSOR_SECRET_PK = 'SETTING#cursor-secret';
const CURSOR_SECRET_SK = 'SETTING';

export interface StoredCursorSecrets {
  current: string;
  previous?: string;
}

export class CursorSecretRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private readonly key = { pk: CURSOR_SECRET_PK, sk: CURSOR_SECRET_SK };

  /** Strongly consistent, so a load right after another process created or rotated it sees that. */
  async get(): Promise<StoredCursorSecrets | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: this.key,
        ConsistentRead: true,
        ProjectionExpression: '#current, #previous',
        ExpressionAttributeNames: { '#current': 'current', '#previous': 'previous' },
      }),
    );
    if (!Item) return undefined;
    const { current, previous } = Item as { current?: unknown; previous?: unknown };
    return {
      current: typeof current === 'string' ? current : '',
      ...(typeof previous === 'string' ? { previous } : {}),
    };
  }

  /** Writes the first secret; false when another process created one first (nothing is overwritten). */
  async createIfAbsent(secrets: StoredCursorSecrets, at: string): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...this.key, ...secrets, created_at: at },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  /**
   * Replaces the secrets if `current` is still `expectedCurrent` (or, with undefined, if there is no
   * item yet); false when another rotation or the first load got there first.
   */
  async replace(
    expectedCurrent: string | undefined,
    secrets: StoredCursorSecrets,
    at: string,
  ): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...this.key, ...secrets, rotated_at: at },
          ...(expectedCurrent === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#current = :expected',
                ExpressionAttributeNames: { '#current': 'current' },
                ExpressionAttributeValues: { ':expected': expectedCurrent },
              }),
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
}

export function cursorSecretRepositoryFromConfig(
  cfg: Config,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
): CursorSecretRepository {
  return new CursorSecretRepository(doc, tableName(cfg, 'keys'));
}
