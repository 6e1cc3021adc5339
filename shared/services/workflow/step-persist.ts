import { isTerminal, type SessionStatus } from '../../domain/core/session-status';
import { tlpOf } from '../../domain/core/tlp';
import type { Report } from '../../domain/core/vocabulary';
import { edgesFromInvestigation } from '../../domain/graph/graph';
import { closingMessage, relationshipsFrom } from '../../domain/investigation/report/report';
import { riskBasisOf } from '../../domain/investigation/scoring';
import { countEvidence } from '../../domain/investigation/verdict';
import { postingTermsFor } from '../../domain/search/search-phrases';
import { METRIC } from '../../metric-names';
import { countMetric, durationMetric } from '../../observability';
import * as z from '../../zod';
import { indexForSearch, indexForSearchQuietly } from '../sessions/search-indexing';
import { event, message } from '../sessions/session-context';
import { publishSessionEnded } from '../webhooks/webhook-events';
import type { StepContext } from './step-context';
import { injectFault, webhookContextFor } from './workflow-faults';
import { loadSession, recordedToolCalls, SessionInput } from './workflow-step';

/** The Persist state: what the investigation learned, then the report with active → completed. */

const PersistInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, { report: z.nullable(z.record(z.string(), z.unknown())) }))();

/**
 * Writes what the investigation learned (graph edges, the subject's verdict for later runs, the
 * search index), then the report with active → completed. The knowledge writes come first and are
 * idempotent, so a client that sees `completed` can already find the session and its edges.
 */
export async function persist(
  ctx: StepContext,
  rawInput: unknown,
): Promise<{ session_id: string; status: SessionStatus }> {
  const input = PersistInput.parse(rawInput);
  const session = await loadSession(ctx, input.session_id);
  const entity = session.entity;
  await injectFault(ctx.cfg, 'step-persist', entity.value);
  const report = input.report as Report | null;
  if (session.status !== 'active' || !report) {
    // A step run twice (Express runs at least once, or retried because publishing failed) finds the
    // session ended: publish again, which sends nothing a first run already sent (the delivery
    // items are the outbox).
    if (isTerminal(session.status))
      await publishSessionEnded(webhookContextFor(entity.value), session, 'retry');
    return { session_id: session.session_id, status: session.status };
  }

  const at = ctx.now();
  const completedAt = at.toISOString();
  const calls = await recordedToolCalls(ctx, session.session_id);
  const discovered = relationshipsFrom({ entity, toolCalls: calls, sessionId: session.session_id });
  await ctx.graph.record(
    { id: session.session_id, kind: 'investigation', at: completedAt, tlp: tlpOf(session.tlp) },
    [
      {
        entity,
        kind: 'investigation',
        at: completedAt,
        risk_score: report.risk_score,
        // A benign verdict (the tenant's word or positive evidence) passes no risk on to neighbours.
        risk_basis: report.verdict === 'benign' ? [] : riskBasisOf(countEvidence(report.findings).counted),
      },
    ],
    edgesFromInvestigation({
      session_id: session.session_id,
      entity,
      related: discovered.map((edge) => ({ entity: edge.to, link: edge.link })),
      at: completedAt,
    }),
  );
  await ctx.verdicts.record(
    entity,
    {
      session_id: session.session_id,
      verdict: report.verdict,
      risk_score: report.risk_score,
      completed_at: completedAt,
    },
    session.created_at,
  );
  await indexForSearch(ctx, { ...session, status: 'completed', report }, postingTermsFor);

  const moved = await ctx.sessions.transition(
    session.session_id,
    'completed',
    { report, completed_at: completedAt },
    [
      event(at, 'report_ready', { verdict: report.verdict, risk_score: report.risk_score }),
      message(at, 'assistant', closingMessage(report)),
      event(at, 'status_changed', { status: 'completed' }),
    ],
  );
  if (!moved.ok) {
    // Canceled or failed meanwhile: the index must show the status that stuck.
    if (moved.session) await indexForSearchQuietly(ctx, moved.session);
    await publishSessionEnded(webhookContextFor(entity.value), moved.session, 'retry');
    return { session_id: session.session_id, status: moved.session?.status ?? session.status };
  }
  countMetric(METRIC.investigationsCompleted);
  durationMetric(METRIC.investigationDuration, at.getTime() - Date.parse(session.created_at));
  // Last: a failed publish retries the step, whose second run publishes and counts nothing twice.
  await publishSessionEnded(webhookContextFor(entity.value), moved.session, 'retry');
  return { session_id: session.session_id, status: 'completed' };
}
