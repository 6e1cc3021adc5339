import { type DynamoDBDocumentClient, GetCommand, paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import type { Entity } from '../../domain/core/entity';
import type { FeedbackRecord } from '../../domain/core/vocabulary';
import type { AllowlistEntry } from '../../domain/tenant-knowledge/allowlist-types';
import type { CriticalAsset } from '../../domain/tenant-knowledge/critical-assets';
import type { DoNotShareMark } from '../../domain/tenant-knowledge/do-not-share';
import { documentClientFor } from '../dynamo-client';
import { tableName } from '../tables';
import {
  ALLOWLIST_PK,
  ASSET_PREFIX,
  assetFromItem,
  assetSk,
  COUNTED_REVIEW_PREFIX,
  CRITICAL_ASSETS_PK,
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
    const item = await this.getItem(ALLOWLIST_PK, entrySk(entryId));
    return item ? entryFromItem(item) : undefined;
  }

  /** Every entry (expired ones too, until DynamoDB's TTL removes them), in entry ID order. */
  async listEntries(): Promise<AllowlistEntry[]> {
    return this.listPartition(ALLOWLIST_PK, ENTRY_PREFIX, entryFromItem);
  }

  /** One item of a partition (strongly consistent), or undefined. */
  private async getItem(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.sessionsTable, Key: { pk, sk }, ConsistentRead: true }),
    );
    return Item;
  }

  /** Every item of a partition under a prefix, in key order (bounded like the allowlist). */
  private async listPartition<T>(
    pk: string,
    prefix: string,
    fromItem: (item: Record<string, unknown>) => T,
  ): Promise<T[]> {
    const out: T[] = [];
    const pages = paginateQuery(
      { client: this.doc, pageSize: 1000 },
      {
        TableName: this.sessionsTable,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) out.push(fromItem(item));
      if (out.length >= MAX_ALLOWLIST_ENTRIES) break;
    }
    return out.slice(0, MAX_ALLOWLIST_ENTRIES);
  }

  /** The entity's "do not share" mark, if an admin set one (one strongly consistent GetItem). */
  async doNotShareMark(entity: Entity): Promise<DoNotShareMark | undefined> {
    const item = await this.getItem(DO_NOT_SHARE_PK, markSk(entity));
    return item ? markFromItem(item) : undefined;
  }

  async isDoNotShare(entity: Entity): Promise<boolean> {
    return (await this.doNotShareMark(entity)) !== undefined;
  }

  /** Every mark, in entity order (bounded like the allowlist). */
  async listMarks(): Promise<DoNotShareMark[]> {
    return this.listPartition(DO_NOT_SHARE_PK, MARK_PREFIX, markFromItem);
  }

  /** The host's or user's critical-asset item, if an admin declared one (one GetItem). */
  async criticalAsset(entity: Entity): Promise<CriticalAsset | undefined> {
    const item = await this.getItem(CRITICAL_ASSETS_PK, assetSk(entity));
    return item ? assetFromItem(item) : undefined;
  }

  /** Every critical asset, in entity order (bounded like the allowlist). */
  async listCriticalAssets(): Promise<CriticalAsset[]> {
    return this.listPartition(CRITICAL_ASSETS_PK, ASSET_PREFIX, assetFromItem);
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
