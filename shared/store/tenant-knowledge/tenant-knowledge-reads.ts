import { type DynamoDBDocumentClient, GetCommand, paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import type { Entity } from '../../domain/core/entity';
import type { FeedbackRecord } from '../../domain/core/vocabulary';
import type { AllowlistEntry } from '../../domain/tenant-knowledge/allowlist-types';
import type { DoNotShareMark } from '../../domain/tenant-knowledge/do-not-share';
import { documentClientFor } from '../dynamo-client';
import { tableName } from '../tables';
import {
  ALLOWLIST_PK,
  COUNTED_REVIEW_PREFIX,
  DO_NOT_SHARE_PK,
  ENTRY_PREFIX,
  entryFromItem,
  entrySk,
  feedbackFromItem,
  feedbackPk,
  MARK_PREFIX,
  MAX_ALLOWLIST_ENTRIES,
  MAX_FEEDBACK_READ,
  markFromItem,
  markSk,
  WAITING_REVIEW_PREFIX,
} from './tenant-knowledge-items';

/**
 * Reading the tenant's knowledge (key design in tenant-knowledge-repository.ts): what an investigation
 * (the run-tool step) and the admin routes read. Its own module so the run-tool step does not carry
 * the writes.
 */
export class TenantKnowledgeReads {
  constructor(
    protected readonly doc: DynamoDBDocumentClient,
    protected readonly sessionsTable: string,
  ) {}

  async getEntry(entryId: string): Promise<AllowlistEntry | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.sessionsTable,
        Key: { pk: ALLOWLIST_PK, sk: entrySk(entryId) },
        ConsistentRead: true,
      }),
    );
    return Item ? entryFromItem(Item) : undefined;
  }

  /** Every entry (expired ones too, until DynamoDB's TTL removes them), in entry ID order. */
  async listEntries(): Promise<AllowlistEntry[]> {
    const entries: AllowlistEntry[] = [];
    const pages = paginateQuery(
      { client: this.doc, pageSize: 1000 },
      {
        TableName: this.sessionsTable,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
        ExpressionAttributeValues: { ':pk': ALLOWLIST_PK, ':entry': ENTRY_PREFIX },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) entries.push(entryFromItem(item));
      if (entries.length >= MAX_ALLOWLIST_ENTRIES) break;
    }
    return entries.slice(0, MAX_ALLOWLIST_ENTRIES);
  }

  /** The entity's "do not share" mark, if an admin set one (one strongly consistent GetItem). */
  async doNotShareMark(entity: Entity): Promise<DoNotShareMark | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.sessionsTable,
        Key: { pk: DO_NOT_SHARE_PK, sk: markSk(entity) },
        ConsistentRead: true,
      }),
    );
    return Item ? markFromItem(Item) : undefined;
  }

  async isDoNotShare(entity: Entity): Promise<boolean> {
    return (await this.doNotShareMark(entity)) !== undefined;
  }

  /** Every mark, in entity order (bounded like the allowlist). */
  async listMarks(): Promise<DoNotShareMark[]> {
    const marks: DoNotShareMark[] = [];
    const pages = paginateQuery(
      { client: this.doc, pageSize: 1000 },
      {
        TableName: this.sessionsTable,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :mark)',
        ExpressionAttributeValues: { ':pk': DO_NOT_SHARE_PK, ':mark': MARK_PREFIX },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) marks.push(markFromItem(item));
      if (marks.length >= MAX_ALLOWLIST_ENTRIES) break;
    }
    return marks.slice(0, MAX_ALLOWLIST_ENTRIES);
  }

  /**
   * The entity's reviews, newest first: up to 20 that count and up to 20 others (awaiting approval,
   * and those kept before history), in two reads so neither class crowds the other out.
   */
  async feedbackFor(entity: Entity): Promise<FeedbackRecord[]> {
    const read = (condition: string, bound: string) =>
      this.doc.send(
        new QueryCommand({
          TableName: this.sessionsTable,
          KeyConditionExpression: `pk = :pk AND ${condition}`,
          ExpressionAttributeValues: { ':pk': feedbackPk(entity), ':bound': bound },
          ScanIndexForward: false,
          Limit: MAX_FEEDBACK_READ,
        }),
      );
    const [counted, others] = await Promise.all([
      read('begins_with(sk, :bound)', COUNTED_REVIEW_PREFIX),
      read('sk >= :bound', WAITING_REVIEW_PREFIX),
    ]);
    return [...(counted.Items ?? []), ...(others.Items ?? [])]
      .map(feedbackFromItem)
      .sort((a, b) => b.at.localeCompare(a.at));
  }
}

export function tenantKnowledgeReadsFromConfig(
  cfg: Config,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
): TenantKnowledgeReads {
  return new TenantKnowledgeReads(doc, tableName(cfg, 'sessions'));
}
