import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import type { Entity } from '../../domain/core/entity';
import { ConflictError, NotFoundError } from '../../domain/core/errors';
import type { FeedbackRecord } from '../../domain/core/vocabulary';
import type { AuditEntry } from '../../domain/keys/key-lifecycle';
import type { AllowlistEntry } from '../../domain/tenant-knowledge/allowlist';
import type { CriticalAsset } from '../../domain/tenant-knowledge/critical-assets';
import type { DoNotShareMark } from '../../domain/tenant-knowledge/do-not-share';
import { type TransactItem, transactWithAudit } from '../audit-items';
import { documentClientFor } from '../dynamo-client';
import { tableName } from '../tables';
import {
  ALLOWLIST_PK,
  assetSk,
  CRITICAL_ASSETS_PK,
  DO_NOT_SHARE_PK,
  entrySk,
  feedbackPk,
  markSk,
  reviewSk,
} from './tenant-knowledge-items';
import { TenantKnowledgeReads } from './tenant-knowledge-reads';

/**
 * The tenant's own knowledge (docs/tenant-knowledge.md), in the sessions table beside the verdicts
 * the investigation tools already read (the run-tool step reads it with the grant it has):
 *
 *   pk ALLOWLIST                  sk ENTRY#<entry_id>   one allowlist entry (TTL at its expiry)
 *   pk FEEDBACK#<type>#<value>    sk C#|P#<review_id>   every review of that entity's sessions (P#:
 *                                                        awaiting an admin's approval; items.ts reviewSk)
 *   pk DO_NOT_SHARE               sk MARK#<type>#<value> one "do not share" mark
 *   pk CRITICAL_ASSETS            sk ASSET#<type>#<value> one critical host or user
 *
 * Every change is written in one transaction with its audit record in the keys table's audit
 * partition (pk AUDIT, the admin audit list), which these functions may write and nothing else of
 * that table (infra/function-grants.ts `auditAppend`). An investigation only reads: one Query of the
 * allowlist partition and one of the entity's feedback partition (and, for a host or a user, one
 * GetItem of its critical-asset item).
 */
export { AUDIT_PK, MAX_ALLOWLIST_ENTRIES } from './tenant-knowledge-items';

export class TenantKnowledgeRepository extends TenantKnowledgeReads {
  constructor(
    doc: DynamoDBDocumentClient,
    sessionsTable: string,
    private readonly keysTable: string,
  ) {
    super(doc, sessionsTable);
  }

  /** The change and its audit entry in one transaction; false when a condition refused it. */
  private audited(actions: readonly TransactItem[], audit: AuditEntry): Promise<boolean> {
    return transactWithAudit(this.doc, this.keysTable, actions, audit);
  }

  /**
   * Adds the entry with its audit record; ConflictError when an unexpired entry with the same ID
   * (the same type and value) exists. An expired one is replaced.
   */
  async addEntry(entry: AllowlistEntry, audit: AuditEntry): Promise<void> {
    const written = await this.audited(
      [
        {
          Put: {
            TableName: this.sessionsTable,
            Item: {
              pk: ALLOWLIST_PK,
              sk: entrySk(entry.entry_id),
              entry_id: entry.entry_id,
              entry_type: entry.type,
              value: entry.value,
              reason: entry.reason,
              created_by: entry.created_by,
              created_at: entry.created_at,
              expires_at: entry.expires_at,
              ...(entry.expires_at
                ? { expires_at_epoch: Math.ceil(Date.parse(entry.expires_at) / 1000) }
                : {}),
            },
            ConditionExpression:
              'attribute_not_exists(sk) OR (attribute_type(expires_at, :string) AND expires_at <= :now)',
            ExpressionAttributeValues: { ':string': 'S', ':now': entry.created_at },
          },
        },
      ],
      audit,
    );
    if (!written) {
      throw new ConflictError(
        `${entry.type} ${entry.value} is already on the allowlist (entry ${entry.entry_id}); remove it first to change it.`,
      );
    }
  }

  /** Deletes the entry with its audit record; NotFoundError when there is none. */
  async removeEntry(entryId: string, audit: AuditEntry): Promise<void> {
    await this.deleteAudited(
      { pk: ALLOWLIST_PK, sk: entrySk(entryId) },
      audit,
      'No allowlist entry with this ID.',
    );
  }

  /** Deletes an existing item with its audit record in one transaction; NotFoundError when it is absent. */
  private async deleteAudited(
    key: { pk: string; sk: string },
    audit: AuditEntry,
    notFound: string,
  ): Promise<void> {
    const written = await this.audited(
      [{ Delete: { TableName: this.sessionsTable, Key: key, ConditionExpression: 'attribute_exists(sk)' } }],
      audit,
    );
    if (!written) throw new NotFoundError(notFound);
  }

  /** Puts a new item with its audit record in one transaction; ConflictError when it exists. */
  private async putNewAudited(
    item: Record<string, unknown> & { pk: string; sk: string },
    audit: AuditEntry,
    exists: string,
  ): Promise<void> {
    const written = await this.audited(
      [
        {
          Put: { TableName: this.sessionsTable, Item: item, ConditionExpression: 'attribute_not_exists(sk)' },
        },
      ],
      audit,
    );
    if (!written) throw new ConflictError(exists);
  }

  /** Marks the entity "do not share" with its audit record; ConflictError when it already is. */
  async markDoNotShare(mark: DoNotShareMark, audit: AuditEntry): Promise<void> {
    const entity = { type: mark.entity_type, value: mark.value };
    await this.putNewAudited(
      { pk: DO_NOT_SHARE_PK, sk: markSk(entity), ...mark },
      audit,
      `${mark.entity_type} ${mark.value} is already marked do not share.`,
    );
  }

  /** Adds a critical asset with its audit record; ConflictError when the entity already is one. */
  async addCriticalAsset(asset: CriticalAsset, audit: AuditEntry): Promise<void> {
    const entity = { type: asset.entity_type, value: asset.value };
    await this.putNewAudited(
      { pk: CRITICAL_ASSETS_PK, sk: assetSk(entity), ...asset },
      audit,
      `${asset.entity_type} ${asset.value} is already a critical asset; remove it first to change it.`,
    );
  }

  /** Removes a critical asset with its audit record; NotFoundError when there is none. */
  async removeCriticalAsset(entity: Entity, audit: AuditEntry): Promise<void> {
    await this.deleteAudited(
      { pk: CRITICAL_ASSETS_PK, sk: assetSk(entity) },
      audit,
      `${entity.type} ${entity.value} is not a critical asset.`,
    );
  }

  /** Lowers (deletes) the mark with its audit record; NotFoundError when there is none. */
  async lowerDoNotShare(entity: Entity, audit: AuditEntry): Promise<void> {
    await this.deleteAudited(
      { pk: DO_NOT_SHARE_PK, sk: markSk(entity) },
      audit,
      `${entity.type} ${entity.value} is not marked do not share.`,
    );
  }

  /**
   * Adds a review to the entity's history (never replacing one), with its audit record. An approval
   * (`approves`) is written only while the review it approves exists, awaits approval and is on the
   * same session: NotFoundError otherwise.
   */
  async addFeedback(
    entity: Entity,
    feedback: FeedbackRecord & { review_id: string },
    waiting: boolean,
    audit: AuditEntry,
  ): Promise<void> {
    const pk = feedbackPk(entity);
    const approved = feedback.approves
      ? [
          {
            ConditionCheck: {
              TableName: this.sessionsTable,
              Key: { pk, sk: reviewSk(feedback.approves, true) },
              ConditionExpression: 'session_id = :session',
              ExpressionAttributeValues: { ':session': feedback.session_id },
            },
          },
        ]
      : [];
    const written = await this.audited(
      [
        ...approved,
        {
          Put: {
            TableName: this.sessionsTable,
            Item: { pk, sk: reviewSk(feedback.review_id, waiting), ...feedback },
            ConditionExpression: 'attribute_not_exists(sk)',
          },
        },
      ],
      audit,
    );
    if (written) return;
    if (feedback.approves) {
      throw new NotFoundError(`No review ${feedback.approves} awaiting approval on this session.`);
    }
    // Review IDs are random: a second write of the same one is a retried request.
    throw new ConflictError('This review is already recorded.');
  }
}

export function tenantKnowledgeRepositoryFromConfig(
  cfg: Config,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
): TenantKnowledgeRepository {
  return new TenantKnowledgeRepository(doc, tableName(cfg, 'sessions'), tableName(cfg, 'keys'));
}
