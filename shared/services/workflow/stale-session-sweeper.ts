import {
  STALE_REASONS,
  type StaleCause,
  type StaleSessionLimits,
  staleCandidatesCreatedBefore,
  stalenessOf,
  staleSessionLimits,
  sweepDecision,
} from '../../domain/investigation/stale-sessions';
import { workflowTypeOf } from '../../domain/investigation/workflow-type';
import { logAlarmedFailure, logger } from '../../observability';
import type { SessionRecord } from '../../store/sessions/records';
import type { LifecycleContext } from '../sessions/lifecycle-context';
import { webhookContext } from '../webhooks/webhook-context';
import { redispatchOutbox } from '../webhooks/webhook-events';
import { endSession, REASONS } from './ended-runs';

/**
 * The scheduled backstop for sessions the normal paths left open: a start that crashed between
 * creating the session and StartExecution succeeding (initialized forever), or a run whose
 * status-change event was lost (active forever). Every few minutes it lists the open sessions old
 * enough to be stale (one Query on the sparse OPEN index, paginated, bounded per run), asks Step
 * Functions what became of each stale one's run, and ends it through the same conditional transition
 * as every other path (endSession): a session that meanwhile ended is left as it is, a run still going
 * within its limits is left alone. The rule is shared/domain/investigation/stale-sessions.ts. Then it
 * sends again the webhook deliveries that ended sessions wrote with their end but whose first send
 * was lost (webhook-events.ts redispatchOutbox): cancel, this sweep and the local restart publish at
 * least once through it.
 */

/** Sessions read from the index per run: a sweep stays well inside its Lambda timeout. */
export const MAX_SESSIONS_PER_SWEEP = 500;
const PAGE_SIZE = 100;

export interface SweepOptions {
  /** Defaults to the limits for SIS_WORKFLOW_TIMEOUT_SECONDS. */
  limits?: StaleSessionLimits;
  maxSessions?: number;
}

export interface SweepResult {
  /** Open sessions created before the candidate cutoff that this run read. */
  examined: number;
  ended: { session_id: string; status: 'failed' | 'canceled'; cause: StaleCause }[];
  /** Stale by age, but their run is still going within its limits. */
  running: string[];
  /** The bound was reached with candidates left; the next run continues. */
  more: boolean;
  /** Webhook deliveries of ended sessions whose first send was lost, sent again (redispatchOutbox). */
  redispatched: number;
}

export class StaleSweepError extends Error {
  override readonly name = 'StaleSweepError';
}

const REASON_OF: Record<StaleCause, string> = {
  not_started: STALE_REASONS.notStarted,
  no_report: STALE_REASONS.noReport,
  run_failed: REASONS.engine,
  run_timed_out: REASONS.timedOut,
  run_aborted: REASONS.aborted,
};

export function limitsFromConfig(ctx: LifecycleContext): StaleSessionLimits {
  const timeout = ctx.cfg.SIS_WORKFLOW_TIMEOUT_SECONDS;
  if (timeout === undefined) {
    throw new StaleSweepError(
      'SIS_WORKFLOW_TIMEOUT_SECONDS is not set: the stack and the local runtime set it from the workflow definition.',
    );
  }
  return staleSessionLimits(timeout);
}

export async function sweepStaleSessions(
  ctx: LifecycleContext,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const limits = options.limits ?? limitsFromConfig(ctx);
  const maxSessions = Math.max(1, options.maxSessions ?? MAX_SESSIONS_PER_SWEEP);
  const now = ctx.now();
  const cutoff = staleCandidatesCreatedBefore(now, limits).toISOString();
  const result: SweepResult = { examined: 0, ended: [], running: [], more: false, redispatched: 0 };
  let failures = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ctx.openSessions.listCreatedBefore(
      cutoff,
      Math.min(PAGE_SIZE, maxSessions - result.examined),
      start,
    );
    start = page.next;
    for (const listed of page.sessions) {
      result.examined++;
      if (stalenessOf(listed, now, limits) === 'fresh') continue;
      try {
        await sweepOne(ctx, listed, now, limits, result);
      } catch (error) {
        failures++;
        logger.error('stale session check failed', { session_id: listed.session_id, error: error as Error });
      }
    }
  } while (start && result.examined < maxSessions);
  result.more = start !== undefined;
  try {
    result.redispatched = await redispatchOutbox(webhookContext(), now);
  } catch (error) {
    failures++;
    logger.error('webhook outbox redispatch failed', { error: error as Error });
  }
  logger.info('stale session sweep', {
    examined: result.examined,
    ended: result.ended.length,
    running: result.running.length,
    more: result.more,
    redispatched: result.redispatched,
    failures,
  });
  // The others were handled; failing the run makes the failures visible (errors alarm) and retried.
  if (failures > 0)
    throw new StaleSweepError(`${failures} stale session(s) or the outbox could not be checked.`);
  return result;
}

async function sweepOne(
  ctx: LifecycleContext,
  listed: SessionRecord,
  now: Date,
  limits: StaleSessionLimits,
  result: SweepResult,
): Promise<void> {
  // The index is eventually consistent: decide on the session as it is now.
  const session = await ctx.sessions.get(listed.session_id);
  if (!session || stalenessOf(session, now, limits) === 'ended') return;
  // An Express run has no record to describe (`untracked`): its session's age alone decides.
  const run = await ctx.workflow.describe(session.run_id, workflowTypeOf(session));
  const decision = sweepDecision(session, run?.status ?? 'missing', now, limits);
  if (decision.action === 'leave') {
    if (decision.why === 'running') result.running.push(session.session_id);
    return;
  }
  const recorded = await endSession(ctx, session.session_id, decision.outcome, REASON_OF[decision.cause]);
  if (!recorded) return; // ended meanwhile by its run, a cancel or another sweep
  result.ended.push({ session_id: session.session_id, status: decision.outcome, cause: decision.cause });
  const ended = {
    session_id: session.session_id,
    previous_status: session.status,
    workflow: workflowTypeOf(session),
    run_status: run?.status ?? 'missing',
    outcome: decision.outcome,
    cause: decision.cause,
  };
  // Every session the sweeper ends is one the normal paths left open (a crashed start, a lost
  // status-change event, an Express run that died or passed its 5 minutes): the failures alarm
  // counts each, late, instead of never (docs/operations.md).
  logAlarmedFailure('stale session ended by the sweeper', ended);
}
