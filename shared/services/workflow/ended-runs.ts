import { isTerminal } from '../../domain/core/session-status';
import { unfinishedMessage } from '../../domain/investigation/report/persona-endings';
import { METRIC } from '../../metric-names';
import { countMetric, logAlarmedFailure, logger } from '../../observability';
import * as z from '../../zod';
import { indexForSearchQuietly, type SearchIndexing } from '../sessions/search-indexing';
import { event, message, type SessionContextWith } from '../sessions/session-context';
import { dispatchSessionEnd, publishSessionEnded, sessionEndOutbox } from '../webhooks/webhook-events';
import { webhookContextFor } from './workflow-faults';
import { SessionInput } from './workflow-step';

/**
 * The write-back of runs that ended without a report: the MarkFailed state, the status-change
 * events of failed, timed-out and stopped executions, the stale-session sweep and the local
 * runtime's restart. None of it runs a tool or builds a report.
 */

export const REASONS = {
  engine: 'The investigation engine failed.',
  stepTimeout: 'A step of the investigation timed out.',
  timedOut: 'The investigation exceeded its time limit.',
  aborted: 'The investigation run was stopped.',
  restart: 'interrupted by a service restart',
} as const;

/**
 * Ends the session as failed (or canceled) unless it already ended; returns whether this call
 * recorded it. The reason is safe to show: internal error names and causes go to the logs only.
 * `onPublishFailure` 'retry' (the workflow's paths, which are retried) throws when the session's
 * webhook event could not be published, after the session has ended (webhook-events.ts).
 */
export async function endSession(
  ctx: SessionContextWith<'sessions'> & SearchIndexing,
  sessionId: string,
  outcome: 'failed' | 'canceled',
  reason: string,
  onPublishFailure: 'best-effort' | 'retry' = 'best-effort',
): Promise<boolean> {
  const session = await ctx.sessions.get(sessionId);
  if (!session) return false;
  if (isTerminal(session.status)) {
    // Every path that sees the end publishes it; the outbox keeps it one delivery per webhook.
    await publishSessionEnded(webhookContextFor(session.entity.value), session, onPublishFailure);
    return false;
  }
  const at = ctx.now();
  const webhooks = webhookContextFor(session.entity.value);
  const set = { completed_at: at.toISOString(), ...(outcome === 'failed' ? { failure_reason: reason } : {}) };
  // The end's webhook deliveries are written with it: a lost send is the sweeper's to repeat.
  const outbox = await sessionEndOutbox(webhooks, { ...session, ...set, status: outcome });
  const moved = await ctx.sessions.transition(
    sessionId,
    outcome,
    set,
    [
      event(at, 'status_changed', { status: outcome, reason }),
      message(at, 'assistant', unfinishedMessage(session.persona, session.entity, outcome, reason)),
    ],
    outbox,
  );
  if (!moved.ok) {
    // Ended meanwhile by another path: publish what it ended with (the outbox keeps it once).
    await publishSessionEnded(webhooks, moved.session, onPublishFailure);
    return false;
  }
  if (outcome === 'failed') countMetric(METRIC.investigationsFailed);
  await indexForSearchQuietly(ctx, moved.session);
  await dispatchSessionEnd(webhooks, moved.session, outbox, onPublishFailure);
  return true;
}

const MarkFailedInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, {
    error: z.optional(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.string()) })),
  }))();

export async function markFailed(
  ctx: SessionContextWith<'sessions'> & SearchIndexing,
  rawInput: unknown,
): Promise<{ recorded: boolean }> {
  const input = MarkFailedInput.parse(rawInput);
  // Counted by the failures alarm here and again when the run's FAILED status reaches the
  // status-change function: either one alone keeps the failure alarmed.
  logAlarmedFailure('investigation run failed', {
    session_id: input.session_id,
    error_name: input.error?.Error,
    cause: input.error?.Cause?.slice(0, 2000),
  });
  const reason = input.error?.Error === 'States.Timeout' ? REASONS.stepTimeout : REASONS.engine;
  return { recorded: await endSession(ctx, input.session_id, 'failed', reason, 'retry') };
}

/** EventBridge "Step Functions Execution Status Change" (the fields this service reads). */
const StatusChangeEvent = /* @__PURE__ */ (() =>
  z.object({
    'detail-type': z.literal('Step Functions Execution Status Change'),
    detail: z.object({
      executionArn: z.string(),
      name: z.string(),
      status: z.enum(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE']),
      input: z.optional(z.nullable(z.string())),
      error: z.optional(z.nullable(z.string())),
      cause: z.optional(z.nullable(z.string())),
    }),
  }))();

/**
 * The backstop that keeps a session from staying active after its run ended: FAILED and TIMED_OUT
 * runs end the session failed, ABORTED ones canceled (a stop from the console or the API), unless
 * a step or the cancel route already ended it.
 */
export async function onExecutionStatusChange(
  ctx: SessionContextWith<'sessions'> & SearchIndexing,
  rawEvent: unknown,
): Promise<{ session_id?: string; recorded: boolean }> {
  const { detail } = StatusChangeEvent.parse(rawEvent);
  let sessionId: string | undefined;
  try {
    sessionId = SessionInput.parse(JSON.parse(detail.input ?? '')).session_id;
  } catch {
    sessionId = undefined;
  }
  const ended = {
    session_id: sessionId,
    execution_arn: detail.executionArn,
    execution_status: detail.status,
    error_name: detail.error ?? undefined,
  };
  // A failed or timed-out run is what the failures alarm counts (it has no alarm of its own), before
  // anything here can fail; a crash of this function is counted as a failed invocation anyway.
  if (detail.status === 'FAILED' || detail.status === 'TIMED_OUT') {
    logAlarmedFailure('investigation run ended unsuccessfully', ended);
  } else logger.info('investigation run ended', ended);
  if (sessionId === undefined) {
    logger.error('status change without a session input', { execution_arn: detail.executionArn });
    return { recorded: false };
  }
  switch (detail.status) {
    case 'FAILED':
      return {
        session_id: sessionId,
        recorded: await endSession(ctx, sessionId, 'failed', REASONS.engine, 'retry'),
      };
    case 'TIMED_OUT':
      return {
        session_id: sessionId,
        recorded: await endSession(ctx, sessionId, 'failed', REASONS.timedOut, 'retry'),
      };
    case 'ABORTED':
      return {
        session_id: sessionId,
        recorded: await endSession(ctx, sessionId, 'canceled', REASONS.aborted, 'retry'),
      };
    default:
      return { session_id: sessionId, recorded: false };
  }
}

/**
 * For the local runtime at start-up: sessions left open by the previous process cannot be running
 * (their executions lived in that process), so they end failed. They are never re-run: polling
 * reads persisted state only (spec 3, rule 4).
 */
export async function failInterruptedSessions(
  ctx: SessionContextWith<'sessions' | 'openSessions'> & SearchIndexing,
): Promise<string[]> {
  const ended: string[] = [];
  for (;;) {
    const open = await ctx.openSessions.list(100);
    if (open.length === 0) return ended;
    let progressed = false;
    for (const session of open) {
      if (await endSession(ctx, session.session_id, 'failed', REASONS.restart)) {
        ended.push(session.session_id);
        progressed = true;
      }
    }
    // The index is eventually consistent: stop rather than spin on entries already ended.
    if (!progressed) return ended;
  }
}
