import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { subjectPk } from './keys';
import type { SubjectVerdict } from './records';

/**
 * The verdicts of completed sessions per investigated entity (pk SUBJECT#<type>#<value>, sk
 * <completed_at>#<session_id>), of any owner: prior verdicts are tenant knowledge for the tools.
 */
export class VerdictsRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Records a completed session's verdict under its subject; idempotent per session. */
  async record(subject: { type: string; value: string }, verdict: SubjectVerdict): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: subjectPk(subject),
          sk: `${verdict.completed_at}#${verdict.session_id}`,
          ...verdict,
        },
      }),
    );
  }

  /** Verdicts of completed sessions on the entity, newest first. */
  async forSubject(subject: { type: string; value: string }, limit: number): Promise<SubjectVerdict[]> {
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': subjectPk(subject) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (Items ?? []).map(({ session_id, verdict, risk_score, completed_at }) => ({
      session_id: String(session_id),
      verdict: String(verdict),
      risk_score: Number(risk_score),
      completed_at: String(completed_at),
    }));
  }
}
