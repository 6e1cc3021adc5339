import { randomBytes } from 'node:crypto';
import { hasControlOrInvisible } from '../core/entity-normalisation';
import { ForbiddenError, ValidationError } from '../core/errors';
import type { FeedbackRecord, Verdict } from '../core/vocabulary';
import { MAX_EXPIRY_DAYS } from './allowlist-types';

/**
 * Analyst feedback on a completed session (docs/tenant-knowledge.md): a person says the verdict was
 * a true positive (the entity really is hostile) or a false positive, with the reason and an optional
 * expiry. Every review is kept (history, never overwritten). Later investigations of the same entity
 * carry a finding citing the review that decides (weighReviews): a true positive is confirmed
 * evidence, an admin's false positive is the tenant's word that the entity is benign. An analyst's
 * false positive waits for an admin's approval (an admin review that `approves` it): until then it is
 * benign evidence like any other (it never outweighs feed or intel evidence) and never outweighs a
 * confirmation.
 */
export const FEEDBACK_VERDICTS = ['true_positive', 'false_positive'] as const;
export type FeedbackVerdict = (typeof FEEDBACK_VERDICTS)[number];
export const MAX_COMMENT_LENGTH = 1000;
export const MAX_FEEDBACK_EXPIRY_DAYS = MAX_EXPIRY_DAYS;
export type ReviewerRole = 'admin' | 'analyst';

export interface FeedbackInput {
  verdict: FeedbackVerdict;
  comment: string;
  expires_in_days?: number | undefined;
  /** review_id of an analyst's false positive on the same session that this admin review approves. */
  approves?: string | undefined;
}

function invalid(path: string, message: string): never {
  throw new ValidationError(`Invalid feedback: ${message}.`, [{ path, message }]);
}

/** Time-ordered (the milliseconds, zero-padded) then random: the store sorts a history by it. */
export function newReviewId(now: Date): string {
  return `rv_${String(now.getTime()).padStart(13, '0')}${randomBytes(6).toString('hex')}`;
}

export function newFeedback(
  input: FeedbackInput,
  session: { session_id: string; verdict?: Verdict | null; risk_score?: number | null },
  by: { name: string; role: ReviewerRole },
  now: Date,
): FeedbackRecord {
  const comment = input.comment.trim();
  if (hasControlOrInvisible(comment, { allowLineBreaks: true }))
    invalid('comment', 'comment contains control or invisible formatting characters');
  if (!comment) invalid('comment', 'comment must give the reason for the review');
  if (comment.length > MAX_COMMENT_LENGTH) invalid('comment', `at most ${MAX_COMMENT_LENGTH} characters`);
  const days = input.expires_in_days;
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_FEEDBACK_EXPIRY_DAYS))
    invalid(
      'expires_in_days',
      `expires_in_days must be a whole number from 1 to ${MAX_FEEDBACK_EXPIRY_DAYS}`,
    );
  if (input.approves !== undefined) {
    if (by.role !== 'admin') throw new ForbiddenError("Only an admin may approve an analyst's review.");
    if (input.verdict !== 'false_positive') invalid('approves', 'an approval is a false_positive review');
  }
  return {
    session_id: session.session_id,
    verdict: input.verdict,
    comment,
    by: by.name,
    at: now.toISOString(),
    session_verdict: session.verdict ?? null,
    session_risk_score: session.risk_score ?? null,
    review_id: newReviewId(now),
    by_role: by.role,
    expires_at: days === undefined ? null : new Date(now.getTime() + days * 86_400_000).toISOString(),
    ...(input.approves !== undefined ? { approves: input.approves } : {}),
  };
}

/** The reviewer's role: recorded, else (reviews kept before roles were) an admin key's `key:` name. */
export function reviewerRoleOf(review: Pick<FeedbackRecord, 'by' | 'by_role'>): ReviewerRole {
  return review.by_role ?? (review.by.startsWith('key:') ? 'admin' : 'analyst');
}

/** An analyst's false positive: it waits for an admin's approval before it decides anything. */
export function awaitsApproval(review: Pick<FeedbackRecord, 'verdict' | 'by' | 'by_role'>): boolean {
  return review.verdict === 'false_positive' && reviewerRoleOf(review) !== 'admin';
}

export function reviewExpired(review: Pick<FeedbackRecord, 'expires_at'>, now: Date): boolean {
  return typeof review.expires_at === 'string' && Date.parse(review.expires_at) <= now.getTime();
}

/**
 * Which review decides, over an entity's unexpired reviews: the newest that counts (an admin's
 * review, or anyone's confirmation); only without one, the newest review awaiting approval, which
 * is then weak benign evidence. `waiting` are the unexpired reviews awaiting approval, newest first.
 */
export function weighReviews(
  reviews: readonly FeedbackRecord[],
  now: Date,
): { deciding?: FeedbackRecord; counts: boolean; waiting: FeedbackRecord[]; active: FeedbackRecord[] } {
  const active = reviews.filter((r) => !reviewExpired(r, now)).sort((a, b) => b.at.localeCompare(a.at));
  const waiting = active.filter(awaitsApproval);
  const counted = active.find((r) => !awaitsApproval(r));
  if (counted) return { deciding: counted, counts: true, waiting, active };
  const [pending] = waiting;
  return pending ? { deciding: pending, counts: false, waiting, active } : { counts: false, waiting, active };
}
