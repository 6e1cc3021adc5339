import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { live } from '../retention/retention-ttl';
import { META, REPORT, sessionKey, toSession } from './keys';
import type { SessionRecord } from './records';
import { unpacked } from './report-packing';

/**
 * The session record with its report (one Query over META and META#REPORT, read consistently); a
 * session past its retention reads as absent even before DynamoDB's TTL deletes it.
 */
export async function readSession(
  doc: DynamoDBDocumentClient,
  tableName: string,
  sessionId: string,
): Promise<SessionRecord | undefined> {
  const { pk } = sessionKey(sessionId);
  const { Items } = await doc.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :meta AND :report',
      ExpressionAttributeValues: { ':pk': pk, ':meta': META, ':report': REPORT },
      ConsistentRead: true,
    }),
  );
  const meta = Items?.find((item) => item.sk === META);
  const report = Items?.find((item) => item.sk === REPORT);
  const session = toSession(live(meta));
  if (session && report) session.report = unpacked(report, 'report');
  return session;
}

/**
 * The session records read-only: what the functions that never create a session or change its
 * status use (the report, the STIX export, Assess, the analyst turn), so they carry none of the
 * writing code (SessionsRepository: creation, status transitions, the deferred results they publish).
 */
export class SessionReader {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  get(sessionId: string): Promise<SessionRecord | undefined> {
    return readSession(this.doc, this.tableName, sessionId);
  }
}
