import { hasControlOrInvisible } from '../core/entity-normalisation';
import { ValidationError } from '../core/errors';
import type { FeedbackRecord, Verdict } from '../core/vocabulary';

/**
 * Analyst feedback on a completed session (docs/tenant-knowledge.md): a person says the verdict was
 * a true positive (the entity really is hostile) or a false positive. Later investigations of the
 * same entity carry a finding citing it (who, when, comment): a true positive is confirmed evidence,
 * a false positive is the tenant's word that the entity is benign. The latest feedback counts.
 */
export const FEEDBACK_VERDICTS = ['true_positive', 'false_positive'] as const;
export type FeedbackVerdict = (typeof FEEDBACK_VERDICTS)[number];
export const MAX_COMMENT_LENGTH = 1000;

export interface FeedbackInput {
  verdict: FeedbackVerdict;
  comment: string;
}

export function newFeedback(
  input: FeedbackInput,
  session: { session_id: string; verdict?: Verdict | null; risk_score?: number | null },
  by: string,
  now: Date,
): FeedbackRecord {
  const comment = input.comment.trim();
  if (hasControlOrInvisible(comment, { allowLineBreaks: true })) {
    throw new ValidationError(
      'Invalid feedback: comment contains control or invisible formatting characters.',
      [{ path: 'comment', message: 'contains control or invisible formatting characters' }],
    );
  }
  if (comment.length > MAX_COMMENT_LENGTH) {
    throw new ValidationError(`Invalid feedback: comment must be at most ${MAX_COMMENT_LENGTH} characters.`, [
      { path: 'comment', message: `at most ${MAX_COMMENT_LENGTH} characters` },
    ]);
  }
  return {
    session_id: session.session_id,
    verdict: input.verdict,
    comment,
    by,
    at: now.toISOString(),
    session_verdict: session.verdict ?? null,
    session_risk_score: session.risk_score ?? null,
  };
}
