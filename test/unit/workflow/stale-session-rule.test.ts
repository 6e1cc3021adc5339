import { describe, expect, it } from 'vitest';
import { workflowTimeoutSeconds } from '../../../infra/workflow/definition';
import type { SessionStatus } from '../../../shared/domain/core/session-status';
import {
  EXPRESS_MARGIN_SECONDS,
  REPORT_BACK_MARGIN_SECONDS,
  type RunState,
  START_GRACE_SECONDS,
  staleCandidatesCreatedBefore,
  stalenessOf,
  staleSessionLimits,
  sweepDecision,
} from '../../../shared/domain/investigation/stale-sessions';
import { EXPRESS_MAX_SECONDS } from '../../../shared/domain/investigation/workflow-type';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const WORKFLOW_TIMEOUT = 3600;
const limits = staleSessionLimits(WORKFLOW_TIMEOUT);
/** A session created `seconds` before NOW. */
const aged = (status: SessionStatus, seconds: number) => ({
  status,
  created_at: new Date(NOW.getTime() - seconds * 1000).toISOString(),
});

describe('stale session limits', () => {
  it('are 5 minutes to start and the workflow timeout plus a 5-minute margin to report back', () => {
    expect(START_GRACE_SECONDS).toBe(300);
    expect(REPORT_BACK_MARGIN_SECONDS).toBe(300);
    expect(limits).toEqual({ startGraceSeconds: 300, runLimitSeconds: 3900, expressRunLimitSeconds: 360 });
  });

  it('give a session of an Express run Express’s 5 minutes plus a 1-minute margin, whatever the definition says', () => {
    expect(EXPRESS_MAX_SECONDS).toBe(300);
    expect(EXPRESS_MARGIN_SECONDS).toBe(60);
    expect(staleSessionLimits(60).expressRunLimitSeconds).toBe(360);
  });

  it('follow the timeout the ASL definition gives every run, which the definition must have', () => {
    expect(workflowTimeoutSeconds()).toBe(WORKFLOW_TIMEOUT);
    expect(() => workflowTimeoutSeconds('{"StartAt":"A","States":{}}')).toThrow(/TimeoutSeconds/);
    expect(() => workflowTimeoutSeconds('{"TimeoutSeconds":0}')).toThrow(/TimeoutSeconds/);
  });

  it('refuse a timeout that is not a positive whole number', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => staleSessionLimits(bad)).toThrow(RangeError);
  });
});

describe('staleness of a session', () => {
  it('an initialized session is fresh up to exactly 5 minutes and stale a millisecond later', () => {
    expect(stalenessOf(aged('initialized', 0), NOW, limits)).toBe('fresh');
    expect(stalenessOf(aged('initialized', 300), NOW, limits)).toBe('fresh');
    expect(stalenessOf(aged('initialized', 300.001), NOW, limits)).toBe('start_overdue');
  });

  it('an active session is fresh up to the run limit and stale a millisecond later', () => {
    expect(stalenessOf(aged('active', 301), NOW, limits)).toBe('fresh');
    expect(stalenessOf(aged('active', 3900), NOW, limits)).toBe('fresh');
    expect(stalenessOf(aged('active', 3900.001), NOW, limits)).toBe('run_overdue');
  });

  it('a session of an Express run is fresh for 360 s whatever its status, then stale: its run cannot still be going', () => {
    const express = (status: SessionStatus, seconds: number) => ({
      ...aged(status, seconds),
      workflow: 'express',
    });
    expect(stalenessOf(express('initialized', 301), NOW, limits)).toBe('fresh');
    expect(stalenessOf(express('active', 360), NOW, limits)).toBe('fresh');
    expect(stalenessOf(express('initialized', 360.001), NOW, limits)).toBe('start_overdue');
    expect(stalenessOf(express('active', 360.001), NOW, limits)).toBe('run_overdue');
    // A Standard run of the same age is still well within its limit.
    expect(stalenessOf({ ...aged('active', 361), workflow: 'standard' }, NOW, limits)).toBe('fresh');
    expect(stalenessOf(express('completed', 10_000), NOW, limits)).toBe('ended');
  });

  it('a terminal session is ended however old it is', () => {
    for (const status of ['completed', 'failed', 'canceled'] as const) {
      expect(stalenessOf(aged(status, 10 * 86_400), NOW, limits)).toBe('ended');
    }
  });

  it('a session from the future (clock skew) is fresh; an unreadable creation time is stale', () => {
    expect(stalenessOf(aged('initialized', -600), NOW, limits)).toBe('fresh');
    expect(stalenessOf({ status: 'initialized', created_at: 'not a time' }, NOW, limits)).toBe(
      'start_overdue',
    );
    expect(stalenessOf({ status: 'active', created_at: '' }, NOW, limits)).toBe('run_overdue');
  });

  it('no session created after the candidate cutoff can be stale', () => {
    const cutoff = staleCandidatesCreatedBefore(NOW, limits);
    expect(cutoff.toISOString()).toBe('2025-06-01T11:55:00.000Z');
    for (const status of ['initialized', 'active'] as const) {
      const atCutoff = { status, created_at: cutoff.toISOString() };
      expect(stalenessOf(atCutoff, NOW, limits)).toBe('fresh');
    }
  });
});

describe('what the sweeper does with a session given its run', () => {
  const ALL_RUN_STATES: RunState[] = [
    'RUNNING',
    'SUCCEEDED',
    'FAILED',
    'TIMED_OUT',
    'ABORTED',
    'PENDING_REDRIVE',
    'missing',
  ];

  it('never touches a fresh or terminal session, whatever the run says', () => {
    for (const run of ALL_RUN_STATES) {
      expect(sweepDecision(aged('initialized', 299), run, NOW, limits)).toEqual({
        action: 'leave',
        why: 'fresh',
      });
      expect(sweepDecision(aged('active', 3000), run, NOW, limits)).toEqual({
        action: 'leave',
        why: 'fresh',
      });
      expect(sweepDecision(aged('failed', 99_999), run, NOW, limits)).toEqual({
        action: 'leave',
        why: 'ended',
      });
    }
  });

  it('fails an initialized session without a run: the start never launched it', () => {
    expect(sweepDecision(aged('initialized', 301), 'missing', NOW, limits)).toEqual({
      action: 'end',
      outcome: 'failed',
      cause: 'not_started',
    });
  });

  it('leaves a stale initialized session whose run is still going within the run limit', () => {
    expect(sweepDecision(aged('initialized', 301), 'RUNNING', NOW, limits)).toEqual({
      action: 'leave',
      why: 'running',
    });
    expect(sweepDecision(aged('initialized', 3900), 'RUNNING', NOW, limits)).toEqual({
      action: 'leave',
      why: 'running',
    });
    expect(sweepDecision(aged('initialized', 3901), 'RUNNING', NOW, limits)).toMatchObject({
      action: 'end',
      cause: 'no_report',
    });
  });

  it('writes the run’s real outcome when it ended', () => {
    const session = aged('active', 4000);
    expect(sweepDecision(session, 'FAILED', NOW, limits)).toEqual({
      action: 'end',
      outcome: 'failed',
      cause: 'run_failed',
    });
    expect(sweepDecision(session, 'PENDING_REDRIVE', NOW, limits)).toMatchObject({ cause: 'run_failed' });
    expect(sweepDecision(session, 'TIMED_OUT', NOW, limits)).toEqual({
      action: 'end',
      outcome: 'failed',
      cause: 'run_timed_out',
    });
    expect(sweepDecision(session, 'ABORTED', NOW, limits)).toEqual({
      action: 'end',
      outcome: 'canceled',
      cause: 'run_aborted',
    });
  });

  it('fails an overdue active session whose run is gone, still running, or succeeded without its write', () => {
    for (const run of ['missing', 'RUNNING', 'SUCCEEDED'] as const) {
      expect(sweepDecision(aged('active', 3901), run, NOW, limits)).toEqual({
        action: 'end',
        outcome: 'failed',
        cause: 'no_report',
      });
    }
  });
});

describe('what the sweeper does with a session of an Express run (untracked: no execution record)', () => {
  const express = (status: SessionStatus, seconds: number) => ({
    ...aged(status, seconds),
    workflow: 'express',
  });

  it('leaves it alone within 360 s', () => {
    expect(sweepDecision(express('active', 359), 'untracked', NOW, limits)).toEqual({
      action: 'leave',
      why: 'fresh',
    });
  });

  it('past 360 s fails it by how far it got: initialized never started, active never reported back', () => {
    expect(sweepDecision(express('initialized', 361), 'untracked', NOW, limits)).toEqual({
      action: 'end',
      outcome: 'failed',
      cause: 'not_started',
    });
    expect(sweepDecision(express('active', 361), 'untracked', NOW, limits)).toEqual({
      action: 'end',
      outcome: 'failed',
      cause: 'no_report',
    });
  });
});
