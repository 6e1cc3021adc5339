import type { Entity, EntityType } from '../../domain/core/entity';
import type { FeedbackRecord } from '../../domain/core/vocabulary';
import type { AllowlistEntry, AllowlistType } from '../../domain/tenant-knowledge/allowlist-types';
import type {
  CriticalAsset,
  CriticalAssetType,
  Criticality,
} from '../../domain/tenant-knowledge/critical-assets';
import type { DoNotShareMark } from '../../domain/tenant-knowledge/do-not-share';

/**
 * The tenant's knowledge in the sessions table (tenant-knowledge-repository.ts has the key design):
 * its keys and item shapes, shared by the reads an investigation makes and the admin writes.
 */
export const ALLOWLIST_PK = 'ALLOWLIST';
export const ENTRY_PREFIX = 'ENTRY#';
/** The keys table's audit partition (keys-repository.ts): the only part of that table written here. */
export { AUDIT_PK } from '../audit-items';
/** Far beyond a sane allowlist; an investigation reads at most this many entries. */
export const MAX_ALLOWLIST_ENTRIES = 5_000;
export const MAX_FEEDBACK_READ = 20;

export const feedbackPk = (entity: Entity) => `FEEDBACK#${entity.type}#${entity.value}`;
/** Every feedback partition, as an IAM `dynamodb:LeadingKeys` pattern (infra/function-grants.ts). */
export const FEEDBACK_PK_PATTERN = 'FEEDBACK#*';
export const entrySk = (entryId: string) => `${ENTRY_PREFIX}${entryId}`;
/**
 * A review's sort key: `C#<review_id>` for one that counts, `P#<review_id>` for an analyst's false
 * positive awaiting approval (review IDs are time-ordered), so each class is read newest first and a
 * flood of one never pushes the other out of the read. Reviews kept before history have the
 * session ID as sort key (`s_...`, sorting after `P#`: read with the waiting ones).
 */
export const COUNTED_REVIEW_PREFIX = 'C#';
export const WAITING_REVIEW_PREFIX = 'P#';
export const reviewSk = (reviewId: string, waiting: boolean) =>
  `${waiting ? WAITING_REVIEW_PREFIX : COUNTED_REVIEW_PREFIX}${reviewId}`;

export function entryFromItem(item: Record<string, unknown>): AllowlistEntry {
  return {
    entry_id: String(item.entry_id),
    type: item.entry_type as AllowlistType,
    value: String(item.value),
    reason: String(item.reason),
    created_by: String(item.created_by),
    created_at: String(item.created_at),
    expires_at: typeof item.expires_at === 'string' ? item.expires_at : null,
  };
}

export function feedbackFromItem(item: Record<string, unknown>): FeedbackRecord {
  return {
    session_id: String(item.session_id),
    verdict: item.verdict === 'true_positive' ? 'true_positive' : 'false_positive',
    comment: String(item.comment ?? ''),
    by: String(item.by),
    at: String(item.at),
    session_verdict: (item.session_verdict as FeedbackRecord['session_verdict']) ?? null,
    session_risk_score: typeof item.session_risk_score === 'number' ? item.session_risk_score : null,
    ...(typeof item.review_id === 'string' ? { review_id: item.review_id } : {}),
    ...(item.by_role === 'admin' || item.by_role === 'analyst' ? { by_role: item.by_role } : {}),
    ...(typeof item.expires_at === 'string' ? { expires_at: item.expires_at } : {}),
    ...(typeof item.approves === 'string' ? { approves: item.approves } : {}),
  };
}

/** The tenant-wide "do not share" marks: pk DO_NOT_SHARE, sk MARK#<type>#<value> (one per entity). */
export const DO_NOT_SHARE_PK = 'DO_NOT_SHARE';
export const MARK_PREFIX = 'MARK#';
export const markSk = (entity: Entity) => `${MARK_PREFIX}${entity.type}#${entity.value}`;

export function markFromItem(item: Record<string, unknown>): DoNotShareMark {
  return {
    entity_type: item.entity_type as EntityType,
    value: String(item.value),
    reason: String(item.reason),
    marked_by: String(item.marked_by),
    marked_at: String(item.marked_at),
  };
}

/** The tenant's critical assets: pk CRITICAL_ASSETS, sk ASSET#<type>#<value> (one per host or user). */
export const CRITICAL_ASSETS_PK = 'CRITICAL_ASSETS';
export const ASSET_PREFIX = 'ASSET#';
export const assetSk = (entity: Entity) => `${ASSET_PREFIX}${entity.type}#${entity.value}`;

export function assetFromItem(item: Record<string, unknown>): CriticalAsset {
  return {
    entity_type: item.entity_type as CriticalAssetType,
    value: String(item.value),
    criticality: item.criticality as Criticality,
    owner: String(item.owner),
    reason: String(item.reason),
    added_by: String(item.added_by),
    added_at: String(item.added_at),
  };
}
