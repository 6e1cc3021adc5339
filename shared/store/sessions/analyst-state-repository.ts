import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Conversation } from '../../domain/analyst/conversation';
import { cancellationCodes, isSingleWriteConditionFailure } from '../condition-failures';
import { sessionTtl } from '../retention/retention-ttl';
import { writeWithHistory } from './history-items';
import { ANALYST, sessionKey } from './keys';
import type { AnalystState, HistoryEntry } from './records';

/**
 * The analyst model's conversation between its turns (bedrock mode): one item per session (sk
 * D#ANALYST) holding the conversation as JSON and a revision, so a retried turn cannot overwrite
 * the turn that committed first.
 */
export class AnalystStateRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The conversation and its revision; undefined before the first turn. */
  async get(sessionId: string): Promise<AnalystState | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: sessionKey(sessionId).pk, sk: ANALYST },
        ConsistentRead: true,
      }),
    );
    return Item
      ? { revision: Number(Item.revision), conversation: JSON.parse(String(Item.state)) as Conversation }
      : undefined;
  }

  /**
   * Saves the conversation after a turn together with the turn's history entries, only if the
   * stored revision is still `expectedRevision` (0: none yet). 'conflict' means another attempt of
   * the same turn committed first (a retried step): nothing is written.
   */
  async save(
    sessionId: string,
    conversation: Conversation,
    expectedRevision: number,
    history: HistoryEntry[],
  ): Promise<'saved' | 'conflict'> {
    const { pk } = sessionKey(sessionId);
    const put = {
      TableName: this.tableName,
      Item: {
        pk,
        sk: ANALYST,
        revision: expectedRevision + 1,
        state: JSON.stringify(conversation),
        ...sessionTtl(sessionId),
      },
      ConditionExpression: expectedRevision === 0 ? 'attribute_not_exists(sk)' : 'revision = :expected',
      ...(expectedRevision === 0 ? {} : { ExpressionAttributeValues: { ':expected': expectedRevision } }),
    };
    try {
      if (history.length === 0) {
        await this.doc.send(new PutCommand(put));
        return 'saved';
      }
      await writeWithHistory(this.doc, this.tableName, sessionId, history, [{ Put: put }]);
      return 'saved';
    } catch (error) {
      if (isSingleWriteConditionFailure(error) || cancellationCodes(error)?.[0] === 'ConditionalCheckFailed')
        return 'conflict';
      throw error;
    }
  }
}
