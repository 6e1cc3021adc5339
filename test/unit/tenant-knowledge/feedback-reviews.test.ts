import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import { ForbiddenError, ValidationError } from '../../../shared/domain/core/errors';
import type { FeedbackRecord } from '../../../shared/domain/core/vocabulary';
import { buildReport, findingsFrom, makeFinding, runTools } from '../../../shared/domain/investigation';
import { newFeedback, weighReviews } from '../../../shared/domain/tenant-knowledge/feedback';
import { context, daysAgo, NOW } from '../investigations/investigation-test-data';

/**
 * Issue 36, item 3: reviews that cannot whitewash. Every review is kept, carries a reason, can
 * expire; an analyst's false positive never outweighs feed or intel evidence or a confirmation
 * without an admin's approval (docs/tenant-knowledge.md).
 */
const entity: Entity = { type: 'ip', value: '198.51.100.77' };
const session = { session_id: 's_reviewed01', verdict: 'malicious' as const, risk_score: 80 };
const analyst = { name: 'user:analyst', role: 'analyst' as const };
const admin = { name: 'key:k_admin', role: 'admin' as const };
const review = (
  verdict: FeedbackRecord['verdict'],
  by: typeof analyst | typeof admin,
  ageDays: number,
  extra: { expires_in_days?: number; approves?: string } = {},
) => newFeedback({ verdict, comment: 'Checked by hand', ...extra }, session, by, new Date(daysAgo(ageDays)));

const feodoListing = makeFinding({
  tool: 'feeds',
  code: 'listed',
  title: 'Listed by Feodo Tracker',
  description: 'A botnet C2 on the Feodo Tracker blocklist',
  impact: 'Known C2',
  score: 75,
  category: 'suspicious_infrastructure',
  evidence_source: 'feed:FEODO',
});

async function reportWith(feedback: FeedbackRecord[], extra: ReturnType<typeof makeFinding>[] = []) {
  const toolCalls = await runTools(entity, context({ knowledge: { [`ip:${entity.value}`]: { feedback } } }));
  return buildReport({ entity, toolCalls, findings: [...findingsFrom(toolCalls), ...extra] });
}

describe('feedback reviews', () => {
  it('requires a reason and refuses one of invisible characters only, and bounds the expiry', () => {
    expect(() => newFeedback({ verdict: 'false_positive', comment: '  ' }, session, admin, NOW)).toThrow(
      'comment must give the reason',
    );
    expect(() =>
      newFeedback({ verdict: 'false_positive', comment: '\u200b\u200b' }, session, admin, NOW),
    ).toThrow(ValidationError);
    expect(() =>
      newFeedback({ verdict: 'true_positive', comment: 'C2', expires_in_days: 0 }, session, admin, NOW),
    ).toThrow('expires_in_days');
  });

  it('gives every review its own time-ordered ID (history, not overwrite) and an expiry', () => {
    const first = review('false_positive', analyst, 2, { expires_in_days: 30 });
    const second = review('false_positive', analyst, 1);
    expect(first.review_id).toMatch(/^rv_[0-9a-f]{25}$/);
    expect(first.review_id! < second.review_id!).toBe(true);
    expect(first.expires_at).toBe(new Date(Date.parse(daysAgo(2)) + 30 * 86_400_000).toISOString());
    expect(second.expires_at).toBeNull();
  });

  it("does not let an analyst's false positive outweigh feed evidence until an admin approves it", async () => {
    const fp = review('false_positive', analyst, 1);
    const waiting = await reportWith([fp], [feodoListing]);
    expect(waiting.verdict).not.toBe('benign');
    const cited = waiting.findings.find((f) => f.finding_id.includes('awaiting_approval'));
    expect(cited).toMatchObject({ benign: true, evidence_source: 'feedback:awaiting_approval' });
    // An admin's approval is an admin review: the tenant's word, benign whatever the risk.
    const approval = review('false_positive', admin, 0, { approves: fp.review_id });
    const approved = await reportWith([fp, approval], [feodoListing]);
    expect(approved.verdict).toBe('benign');
    expect(
      approved.findings.some((f) => f.finding_id === 'prior_investigations:feedback_false_positive'),
    ).toBe(true);
  });

  it("keeps an admin's confirmation deciding over a later analyst false positive", async () => {
    const tp = review('true_positive', admin, 5);
    const fp = review('false_positive', analyst, 1);
    const weighed = weighReviews([fp, tp], NOW);
    expect(weighed.deciding).toBe(tp);
    expect(weighed.waiting).toEqual([fp]);
    const report = await reportWith([fp, tp]);
    expect(report.verdict).toBe('malicious');
    // An admin's later false positive does decide.
    expect(weighReviews([tp, review('false_positive', admin, 0)], NOW).deciding?.by).toBe('key:k_admin');
  });

  it('stops counting a review once it has expired', () => {
    const lapsed = review('false_positive', admin, 40, { expires_in_days: 30 });
    expect(weighReviews([lapsed], NOW).deciding).toBeUndefined();
    expect(weighReviews([lapsed], NOW).active).toEqual([]);
    const tp = review('true_positive', admin, 60);
    expect(weighReviews([lapsed, tp], NOW).deciding).toBe(tp);
  });

  it('lets only an admin approve, and only with a false positive', () => {
    expect(() => review('false_positive', analyst, 0, { approves: 'rv_0000000000000aaaaaaaaaaaa' })).toThrow(
      ForbiddenError,
    );
    expect(() => review('true_positive', admin, 0, { approves: 'rv_0000000000000aaaaaaaaaaaa' })).toThrow(
      'an approval is a false_positive review',
    );
  });

  it('treats a review kept before roles were recorded by its name: a console person waits, a key counts', () => {
    const legacy = (by: string): FeedbackRecord => ({
      session_id: 's_old',
      verdict: 'false_positive',
      comment: 'old',
      by,
      at: daysAgo(3),
    });
    expect(weighReviews([legacy('user:someone')], NOW).counts).toBe(false);
    expect(weighReviews([legacy('key:k_admin')], NOW).counts).toBe(true);
  });
});
