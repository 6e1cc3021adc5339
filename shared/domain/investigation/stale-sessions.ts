import type { SessionStatus } from '../core/session-status';
import { isTerminal } from '../core/session-status';
import { EXPRESS_MAX_SECONDS, workflowTypeOf } from './workflow-type';

/**
 * When an open session is stale: its run never got going, or its outcome never came back.
 *
 * A start creates the session (initialized) and starts its run within the same request, and the run's
 * first step (MarkActive) moves it to active within seconds. A session still initialized minutes
 * later means the start crashed between creating it and StartExecution succeeding. An active session
 * older than the state machine's own TimeoutSeconds cannot still be running: Step Functions has ended
 * the run, so its status-change event was lost (or could not be written). The sweeper
 * (shared/services/workflow/stale-session-sweeper.ts) asks Step Functions what became of such a run before it
 * ends the session, so a run that is still going within its limits is never cut short here.
 *
 * A run on the Express state machine (workflow-type.ts) has no execution record to ask about and no
 * status-change event: Step Functions ends it after 5 minutes at the latest, so a session of such a
 * run still open past that limit (plus a margin for the start) has lost its run, whatever its status.
 */

/** How long a session may stay initialized: a start launches its run within seconds. */
export const START_GRACE_SECONDS = 5 * 60;
/**
 * Time past the workflow's own TimeoutSeconds before an active session counts as stale: Step
 * Functions ends the run at its timeout and its status-change event usually lands within seconds;
 * the margin lets that normal path write the outcome first.
 */
export const REPORT_BACK_MARGIN_SECONDS = 5 * 60;
/**
 * Time past Express's 5-minute limit before a session of an Express run counts as stale: the run
 * starts within a second of the session's creation and no event is waited for.
 */
export const EXPRESS_MARGIN_SECONDS = 60;

export interface StaleSessionLimits {
  /** initialized for longer than this: the run never started. */
  startGraceSeconds: number;
  /** active (or initialized with a live run) for longer than this: the run ended without reporting back. */
  runLimitSeconds: number;
  /** A session of an Express run open for longer than this (initialized or active): its run ended. */
  expressRunLimitSeconds: number;
}

/** The limits for a workflow whose definition ends every run after `workflowTimeoutSeconds`. */
export function staleSessionLimits(workflowTimeoutSeconds: number): StaleSessionLimits {
  if (!Number.isInteger(workflowTimeoutSeconds) || workflowTimeoutSeconds <= 0) {
    throw new RangeError(`The workflow timeout must be a positive whole number of seconds.`);
  }
  return {
    startGraceSeconds: START_GRACE_SECONDS,
    runLimitSeconds: workflowTimeoutSeconds + REPORT_BACK_MARGIN_SECONDS,
    expressRunLimitSeconds: EXPRESS_MAX_SECONDS + EXPRESS_MARGIN_SECONDS,
  };
}

/** What the rule reads of a session. */
export interface SessionAge {
  status: SessionStatus;
  /** ISO time the session was created; its run starts right after. */
  created_at: string;
  /** The state machine type its run was started on (absent: Standard). */
  workflow?: string | undefined;
}

export type Staleness =
  /** Terminal: nothing to do, ever. */
  | 'ended'
  /** Open and within its limits. */
  | 'fresh'
  /** Still initialized past the start grace: its run may never have started. */
  | 'start_overdue'
  /** Still active past the run limit: its run must have ended. */
  | 'run_overdue';

/**
 * Seconds since the session was created. An unreadable creation time counts as infinitely old, so
 * such a session is checked against its run rather than left open forever.
 */
export function sessionAgeSeconds(session: Pick<SessionAge, 'created_at'>, now: Date): number {
  const created = Date.parse(session.created_at);
  return Number.isNaN(created) ? Number.POSITIVE_INFINITY : (now.getTime() - created) / 1000;
}

export function stalenessOf(session: SessionAge, now: Date, limits: StaleSessionLimits): Staleness {
  if (isTerminal(session.status)) return 'ended';
  const age = sessionAgeSeconds(session, now);
  if (workflowTypeOf(session) === 'express') {
    if (age <= limits.expressRunLimitSeconds) return 'fresh';
    return session.status === 'initialized' ? 'start_overdue' : 'run_overdue';
  }
  if (session.status === 'initialized') return age > limits.startGraceSeconds ? 'start_overdue' : 'fresh';
  return age > limits.runLimitSeconds ? 'run_overdue' : 'fresh';
}

/** The oldest creation time a session can have and still be fresh whatever its status. */
export function staleCandidatesCreatedBefore(now: Date, limits: StaleSessionLimits): Date {
  const youngest = Math.min(limits.startGraceSeconds, limits.runLimitSeconds, limits.expressRunLimitSeconds);
  return new Date(now.getTime() - youngest * 1000);
}

/**
 * Step Functions' execution statuses, plus `missing` when the run does not exist at all and
 * `untracked` for an Express run (Step Functions keeps no record of it to describe).
 */
export type RunState =
  | 'RUNNING'
  | 'SUCCEEDED'
  | 'FAILED'
  | 'TIMED_OUT'
  | 'ABORTED'
  | 'PENDING_REDRIVE'
  | 'missing'
  | 'untracked';

/** Why a stale session ends; the service turns each into the reason shown to the caller. */
export type StaleCause =
  /** No run exists: the start never got it going. */
  | 'not_started'
  /** The run is gone, still running past every limit, or succeeded without writing its outcome. */
  | 'no_report'
  /** The run ended FAILED (or waits for a redrive nobody asked for), TIMED_OUT or ABORTED. */
  | 'run_failed'
  | 'run_timed_out'
  | 'run_aborted';

export type SweepDecision =
  | { action: 'leave'; why: 'ended' | 'fresh' | 'running' }
  | { action: 'end'; outcome: 'failed' | 'canceled'; cause: StaleCause };

/** The reasons this rule introduces; the run's own outcomes reuse the workflow's reasons. */
export const STALE_REASONS = {
  notStarted: 'The investigation did not start.',
  noReport: 'The investigation did not report back.',
} as const;

/**
 * What to do with an open session given what Step Functions says of its run. A run that ended writes
 * its own outcome (failed, timed out, aborted → canceled, as the status-change path would); a run
 * still going is left alone until the session passes the run limit; no run at all means the start
 * never launched it (initialized) or its record is gone (active).
 */
export function sweepDecision(
  session: SessionAge,
  run: RunState,
  now: Date,
  limits: StaleSessionLimits,
): SweepDecision {
  const staleness = stalenessOf(session, now, limits);
  if (staleness === 'ended' || staleness === 'fresh') return { action: 'leave', why: staleness };
  switch (run) {
    case 'RUNNING':
      return sessionAgeSeconds(session, now) > limits.runLimitSeconds
        ? { action: 'end', outcome: 'failed', cause: 'no_report' }
        : { action: 'leave', why: 'running' };
    case 'FAILED':
    case 'PENDING_REDRIVE':
      return { action: 'end', outcome: 'failed', cause: 'run_failed' };
    case 'TIMED_OUT':
      return { action: 'end', outcome: 'failed', cause: 'run_timed_out' };
    case 'ABORTED':
      return { action: 'end', outcome: 'canceled', cause: 'run_aborted' };
    case 'SUCCEEDED':
      // Persist completes the session before the run succeeds, so an open one missed its write.
      return { action: 'end', outcome: 'failed', cause: 'no_report' };
    case 'missing':
    case 'untracked':
      // Untracked: an Express run past its limit has ended; the session says how far it got.
      return {
        action: 'end',
        outcome: 'failed',
        cause: session.status === 'initialized' ? 'not_started' : 'no_report',
      };
  }
}
