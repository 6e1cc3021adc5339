import { perConfiguration } from '../../config';
import type { EntityType } from '../../domain/core/entity';
import { ConflictError, NotFoundError } from '../../domain/core/errors';
import type { FeedbackRecord, Verdict } from '../../domain/core/vocabulary';
import { VERDICTS } from '../../domain/core/vocabulary';
import { randomIdentifier } from '../../domain/keys/api-key';
import type { AdminAction, AuditEntry } from '../../domain/keys/key-lifecycle';
import { isOwner } from '../../domain/keys/ownership';
import type { Caller } from '../../domain/keys/scopes';
import {
  type AllowlistEntry,
  type AllowlistInput,
  isExpired,
  newAllowlistEntry,
} from '../../domain/tenant-knowledge/allowlist';
import {
  type CriticalAsset,
  type CriticalAssetInput,
  type CriticalAssetType,
  criticalAssetEntity,
  newCriticalAsset,
} from '../../domain/tenant-knowledge/critical-assets';
import {
  type DoNotShareInput,
  type DoNotShareMark,
  doNotShareEntity,
  newDoNotShareMark,
} from '../../domain/tenant-knowledge/do-not-share';
import {
  awaitsApproval,
  type FeedbackInput,
  newFeedback,
  type ReviewerRole,
} from '../../domain/tenant-knowledge/feedback';
import { documentClientFor } from '../../store/dynamo-client';
import { SessionReader } from '../../store/sessions/session-reader';
import { onSessionsTable } from '../../store/sessions-table';
import { tableName } from '../../store/tables';
import { TenantKnowledgeRepository } from '../../store/tenant-knowledge/tenant-knowledge-repository';

/**
 * The tenant's own knowledge (docs/tenant-knowledge.md): the allowlist, kept by admins (admin API keys
 * and console admins), and analysts' feedback on completed sessions (admin API keys, any session of
 * the tenant; console analysts and admins). Every change is audited in the admin audit list. Later
 * investigations read both (the prior_investigations tool) and quote them in a finding.
 */
export interface TenantKnowledgeDeps {
  knowledge: TenantKnowledgeRepository;
  sessions: Pick<SessionReader, 'get'>;
  now: () => Date;
}

export type AllowlistEntryView = AllowlistEntry & { expired: boolean };

/**
 * The feedback answer: the review, whether it counts now or awaits an admin's approval, and the
 * reviewed session's verdict and risk only for a caller that may read that session (its own key's,
 * or a console person's: isOwner); otherwise `session_withheld` says they were left out.
 */
export type FeedbackView = FeedbackRecord & {
  status: 'counts' | 'awaiting_approval';
  session_withheld?: true;
};

/** An admin key or a console admin reviews as an admin; a console analyst as an analyst. */
export function reviewerRole(caller: Caller): ReviewerRole {
  if (caller.user) return caller.user.role === 'admin' ? 'admin' : 'analyst';
  return caller.role === 'admin' ? 'admin' : 'analyst';
}

/** How a person or key is named in entries, findings and feedback: `user:<name>` or `key:<key ID>`. */
export function actorName(caller: Caller): string {
  return caller.user ? `user:${caller.user.username}` : `key:${caller.keyId}`;
}

function audit(
  action: AdminAction,
  target: string,
  caller: Caller,
  at: Date,
  details: AuditEntry['details'],
): AuditEntry {
  return {
    audit_id: randomIdentifier(),
    at: at.toISOString(),
    action,
    key_id: target,
    actor: caller.keyId,
    details,
  };
}

const view = (entry: AllowlistEntry, now: Date): AllowlistEntryView => ({
  ...entry,
  expired: isExpired(entry, now),
});

export class TenantKnowledgeService {
  constructor(private readonly deps: TenantKnowledgeDeps) {}

  async addEntry(caller: Caller, input: AllowlistInput): Promise<AllowlistEntryView> {
    const now = this.deps.now();
    const entry = newAllowlistEntry(input, actorName(caller), now);
    await this.deps.knowledge.addEntry(
      entry,
      audit('allowlist_add', entry.entry_id, caller, now, {
        type: entry.type,
        value: entry.value,
        reason: entry.reason,
        expires_at: entry.expires_at,
      }),
    );
    return view(entry, now);
  }

  async listEntries(): Promise<{ entries: AllowlistEntryView[] }> {
    const now = this.deps.now();
    const entries = await this.deps.knowledge.listEntries();
    return {
      entries: entries
        .map((e) => view(e, now))
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.entry_id.localeCompare(b.entry_id)),
    };
  }

  async removeEntry(caller: Caller, entryId: string): Promise<void> {
    const now = this.deps.now();
    const entry = await this.deps.knowledge.getEntry(entryId);
    if (!entry) throw new NotFoundError('No allowlist entry with this ID.');
    await this.deps.knowledge.removeEntry(
      entryId,
      audit('allowlist_remove', entryId, caller, now, {
        type: entry.type,
        value: entry.value,
        reason: entry.reason,
      }),
    );
  }

  /** Marks an entity "do not share" tenant-wide (admins only: the route decides), audited; 409 when marked. */
  async markDoNotShare(caller: Caller, input: DoNotShareInput): Promise<DoNotShareMark> {
    const now = this.deps.now();
    const mark = newDoNotShareMark(input, actorName(caller), now);
    await this.deps.knowledge.markDoNotShare(
      mark,
      audit('do_not_share_mark', `${mark.entity_type}:${mark.value}`, caller, now, {
        type: mark.entity_type,
        value: mark.value,
        reason: mark.reason,
      }),
    );
    return mark;
  }

  async listDoNotShare(): Promise<{ marks: DoNotShareMark[] }> {
    const marks = await this.deps.knowledge.listMarks();
    return { marks: marks.sort((a, b) => b.marked_at.localeCompare(a.marked_at)) };
  }

  /** Lowers the mark (the entity is shared as its TLP allows again), audited with the mark's reason; 404 when unmarked. */
  async lowerDoNotShare(caller: Caller, type: EntityType, value: string): Promise<void> {
    const now = this.deps.now();
    const entity = doNotShareEntity(type, value);
    const mark = await this.deps.knowledge.doNotShareMark(entity);
    if (!mark) throw new NotFoundError(`${entity.type} ${entity.value} is not marked do not share.`);
    await this.deps.knowledge.lowerDoNotShare(
      entity,
      audit('do_not_share_lower', `${entity.type}:${entity.value}`, caller, now, {
        type: entity.type,
        value: entity.value,
        reason: mark.reason,
        marked_by: mark.marked_by,
      }),
    );
  }

  /** Declares a host or user a critical asset (admins only: the route decides), audited; 409 when it is one. */
  async addCriticalAsset(caller: Caller, input: CriticalAssetInput): Promise<CriticalAsset> {
    const now = this.deps.now();
    const asset = newCriticalAsset(input, actorName(caller), now);
    await this.deps.knowledge.addCriticalAsset(
      asset,
      audit('critical_asset_add', `${asset.entity_type}:${asset.value}`, caller, now, {
        type: asset.entity_type,
        value: asset.value,
        criticality: asset.criticality,
        owner: asset.owner,
        reason: asset.reason,
      }),
    );
    return asset;
  }

  async listCriticalAssets(): Promise<{ assets: CriticalAsset[] }> {
    const assets = await this.deps.knowledge.listCriticalAssets();
    return { assets: assets.sort((a, b) => b.added_at.localeCompare(a.added_at)) };
  }

  /** Removes a critical asset, audited with what it said; 404 when the entity is not one. */
  async removeCriticalAsset(caller: Caller, type: CriticalAssetType, value: string): Promise<void> {
    const now = this.deps.now();
    const entity = criticalAssetEntity(type, value);
    const asset = await this.deps.knowledge.criticalAsset(entity);
    if (!asset) throw new NotFoundError(`${entity.type} ${entity.value} is not a critical asset.`);
    await this.deps.knowledge.removeCriticalAsset(
      entity,
      audit('critical_asset_remove', `${entity.type}:${entity.value}`, caller, now, {
        type: entity.type,
        value: entity.value,
        criticality: asset.criticality,
        owner: asset.owner,
        reason: asset.reason,
      }),
    );
  }

  /**
   * Records feedback on a completed session. The route decides who may call (admin keys, console
   * analysts and admins), all of whom may address any session of the tenant: 404 for no such
   * session, 409 while it runs or when it ended without a verdict.
   */
  async submitFeedback(caller: Caller, sessionId: string, input: FeedbackInput): Promise<FeedbackView> {
    const session = await this.deps.sessions.get(sessionId);
    if (!session) throw new NotFoundError('No session with this ID.');
    if (session.status !== 'completed') {
      throw new ConflictError(
        session.status === 'initialized' || session.status === 'active'
          ? 'The investigation is still running: give feedback once it has completed.'
          : `The investigation ended ${session.status}, without a verdict to review.`,
      );
    }
    const summary = session.report_summary ?? {};
    const verdict = (VERDICTS as readonly unknown[]).includes(summary.verdict)
      ? (summary.verdict as Verdict)
      : null;
    const now = this.deps.now();
    const feedback = newFeedback(
      input,
      {
        session_id: sessionId,
        verdict,
        risk_score: typeof summary.risk_score === 'number' ? summary.risk_score : null,
      },
      { name: actorName(caller), role: reviewerRole(caller) },
      now,
    );
    const entity = session.entity as { type: 'ip' | 'user' | 'host' | 'domain'; value: string };
    const waiting = awaitsApproval(feedback);
    await this.deps.knowledge.addFeedback(
      entity,
      { ...feedback, review_id: feedback.review_id ?? '' },
      waiting,
      audit(feedback.approves ? 'feedback_approve' : 'feedback', sessionId, caller, now, {
        review_id: feedback.review_id ?? null,
        verdict: feedback.verdict,
        comment: feedback.comment,
        entity: `${entity.type}:${entity.value}`,
        session_verdict: verdict,
        by_role: feedback.by_role ?? null,
        expires_at: feedback.expires_at ?? null,
        ...(feedback.approves ? { approves: feedback.approves } : {}),
      }),
    );
    const status = waiting ? 'awaiting_approval' : 'counts';
    if (isOwner(session, caller)) return { ...feedback, status };
    const { session_verdict: _verdict, session_risk_score: _risk, ...withheld } = feedback;
    return { ...withheld, status, session_withheld: true };
  }
}

/** The service of this process (rebuilt when tests reset the config). */
export const tenantKnowledgeService = /* @__PURE__ */ perConfiguration((cfg) => {
  const doc = documentClientFor(cfg);
  return new TenantKnowledgeService({
    knowledge: new TenantKnowledgeRepository(doc, tableName(cfg, 'sessions'), tableName(cfg, 'keys')),
    sessions: onSessionsTable(cfg, SessionReader, doc),
    now: () => new Date(),
  });
});
