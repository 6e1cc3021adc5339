import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expiredItem, sessionTtl } from '../retention/retention-ttl';
import { subjectPk } from './keys';
import type { SubjectVerdict } from './records';

/**
 * The verdicts of completed sessions per investigated entity (pk SUBJECT#<type>#<value>, sk
 * <created_at>#<session_id>), of any owner: prior verdicts are tenant knowledge for the tools. Keyed
 * by the session's creation, the same on every attempt, so a repeated Persist rewrites its one
 * verdict (items written before Express are keyed by completed_at).
 */
export class VerdictsRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Records a completed session's verdict under its subject; idempotent per session: the key is the
   * session's creation time (`createdAt`) and ID, which every attempt of the step (a retry, an
   * Express redelivery, a duplicate execution) shares, where its completion time differs per attempt.
   */
  async record(
    subject: { type: string; value: string },
    verdict: SubjectVerdict,
    createdAt: string,
  ): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: subjectPk(subject),
          sk: `${createdAt}#${verdict.session_id}`,
          ...verdict,
          ...sessionTtl(verdict.session_id),
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
    // A verdict expires with its session (retention/retention-ttl.ts): past it, it is no prior investigation.
    const now = Date.now();
    return (Items ?? [])
      .filter((item) => !expiredItem(item, now))
      .map(({ session_id, verdict, risk_score, completed_at }) => ({
        session_id: String(session_id),
        verdict: String(verdict),
        risk_score: Number(risk_score),
        completed_at: String(completed_at),
      }));
  }
}
