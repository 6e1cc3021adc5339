import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_CHANGE_FUNCTION } from '../../../infra/workflow/definition';
import {
  type LambdaLike,
  type LocalStepFunctions,
  startLocalStepFunctions,
} from '../../../local/step-functions';
import { config } from '../../../shared/config';
import { resolvePersona } from '../../../shared/domain/investigation';
import { STALE_REASONS } from '../../../shared/domain/investigation/stale-sessions';
import { executionArnFor, stepFunctionsEngine } from '../../../shared/platform/workflow-engine';
import { newId } from '../../../shared/services/investigations/investigations';
import { type LifecycleContext, lifecycleContext } from '../../../shared/services/sessions/lifecycle-context';
import { endSession, REASONS } from '../../../shared/services/workflow/ended-runs';
import {
  type SweepResult,
  sweepStaleSessions,
} from '../../../shared/services/workflow/stale-session-sweeper';
import type { SessionRecord } from '../../../shared/store/sessions/records';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * The stale-session sweeper against DynamoDB Local and the local Step Functions running the real
 * ASL. A crashed start is simulated by writing a session through the repository with no run; a lost
 * status-change event by a second local Step Functions whose status-change delivery goes nowhere.
 * Sessions are backdated so they are old enough to be stale by the rule's own limits.
 */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SLOW_START = 'stale-slow-start.example.com';
const SLOW_TOOLS = 'stale-slow-tools.example.com';
const MINUTE = 60_000;

let service: TestService;
let keyId: string;
let apiKey: string;
/** Local Step Functions whose status-change events are lost; steps can be sabotaged per session. */
let lossy: LocalStepFunctions;
let lossyCtx: LifecycleContext;
const lostEvents: unknown[] = [];
const sabotage = new Map<string, Partial<Record<string, LambdaLike>>>();

const realHandler = (name: string) =>
  import(pathToFileURL(resolve(REPO_ROOT, 'functions', name, 'handler.ts')).href).then(
    (m: { handler: LambdaLike }) => m.handler,
  );

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_FAULT_INJECTION: [
        `step-mark-active@${SLOW_START}=delay:2500`,
        `step-run-tool@${SLOW_TOOLS}=delay:2500`,
      ].join(','),
    },
    // The tests run the sweeper themselves; a timer run would race their assertions.
    staleSessionSweep: false,
  });
  const key = await service.createKey({ name: 'stale sweep' });
  keyId = key.keyId;
  apiKey = key.apiKey;
  lossy = await startLocalStepFunctions({
    retryIntervalMs: 5,
    loadHandler: async (name) => {
      if (name === STATUS_CHANGE_FUNCTION) {
        return async (event) => {
          lostEvents.push(event);
          return null;
        };
      }
      const real = await realHandler(name);
      return (event, context) => {
        const sessionId = (event as { session_id?: string } | null)?.session_id ?? '';
        const replaced = sabotage.get(sessionId)?.[name];
        return replaced ? replaced(event, context) : real(event, context);
      };
    },
  });
  lossyCtx = {
    ...lifecycleContext(),
    workflow: stepFunctionsEngine({
      ...config(),
      SIS_SFN_ENDPOINT: lossy.endpoint,
      SIS_STATE_MACHINE_ARN: lossy.stateMachineArn,
    }),
  };
});

afterAll(async () => {
  await lossy?.stop();
  await service?.stop();
});

/** Writes a session as the start route does (status initialized), created `ageMs` ago, with no run. */
async function createSession(entityValue: string, ageMs: number): Promise<SessionRecord> {
  const created = new Date(Date.now() - ageMs);
  const session: SessionRecord = {
    session_id: newId('s', created),
    run_id: newId('r', created),
    owner_key_id: keyId,
    entity: { type: 'domain', value: entityValue },
    persona: resolvePersona().name,
    status: 'initialized',
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
    options: { background: true, include_tool_calls: false, include_raw_results: false },
  };
  const result = await lifecycleContext().sessions.create(session, [
    {
      kind: 'event',
      at: session.created_at,
      body: { type: 'status_changed', detail: { status: 'initialized' } },
    },
  ]);
  expect(result.created).toBe(true);
  return session;
}

const poll = (sessionId: string) =>
  service.call('GET', `/api/v1/public/sessions/${sessionId}`, { key: apiKey });
const statusOf = async (sessionId: string) => (await lifecycleContext().sessions.get(sessionId))?.status;

async function waitForStatus(sessionId: string, status: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await statusOf(sessionId)) !== status) {
    if (Date.now() > deadline) throw new Error(`session ${sessionId} never became ${status}`);
    await new Promise((wake) => setTimeout(wake, 25));
  }
}

const endedIds = (result: SweepResult) => result.ended.map((e) => e.session_id);

describe('a start that crashed before its run began', () => {
  it('is failed by the sweeper with its reason, and a poll answers 200 failed', async () => {
    const crashed = await createSession('crashed-start.example.com', 10 * MINUTE);
    const recent = await createSession('recent-start.example.com', 4 * MINUTE);

    const result = await service.sweepStaleSessions();
    expect(result.ended).toContainEqual({
      session_id: crashed.session_id,
      status: 'failed',
      cause: 'not_started',
    });
    expect(endedIds(result)).not.toContain(recent.session_id);

    const polled = await poll(crashed.session_id);
    expect(polled.status).toBe(200);
    expect(polled.body.session).toMatchObject({
      status: 'failed',
      failure_reason: STALE_REASONS.notStarted,
      completed_at: expect.any(String),
    });
    expect(polled.body.events.at(-1)).toMatchObject({
      type: 'status_changed',
      detail: { status: 'failed', reason: 'The investigation did not start.' },
    });
    expect(polled.body.messages.at(-1)).toMatchObject({ role: 'assistant' });

    // Four minutes old is within the start grace: not touched.
    expect(await statusOf(recent.session_id)).toBe('initialized');

    // A second sweep finds nothing more to do with the failed session.
    const again = await service.sweepStaleSessions();
    expect(endedIds(again)).not.toContain(crashed.session_id);
    expect((await poll(crashed.session_id)).body.events).toHaveLength(polled.body.events.length);
    // Tidy: the recent one would be failed once it ages; end it so later sweeps see a clean index.
    await endSession(lifecycleContext(), recent.session_id, 'failed', 'test cleanup');
  });
});

describe('a run that is still going', () => {
  it('is left alone within its limits, and its session then completes normally', async () => {
    const ctx = lifecycleContext();
    // Stale by age (still initialized after 10 minutes) but its run is RUNNING: the start grace is
    // not the run limit.
    const slowStart = await createSession(SLOW_START, 10 * MINUTE);
    await ctx.workflow.start(slowStart.run_id, { session_id: slowStart.session_id });
    // Active for 30 minutes, far inside the workflow's own timeout.
    const longRun = await createSession(SLOW_TOOLS, 30 * MINUTE);
    await ctx.workflow.start(longRun.run_id, { session_id: longRun.session_id });
    await waitForStatus(longRun.session_id, 'active');
    expect(await statusOf(slowStart.session_id)).toBe('initialized');

    const result = await service.sweepStaleSessions();
    expect(result.running).toContain(slowStart.session_id);
    expect(endedIds(result)).not.toContain(slowStart.session_id);
    expect(endedIds(result)).not.toContain(longRun.session_id);
    expect(await statusOf(slowStart.session_id)).toBe('initialized');
    expect(await statusOf(longRun.session_id)).toBe('active');

    await service.stepFunctions.idle();
    expect(await statusOf(slowStart.session_id)).toBe('completed');
    expect(await statusOf(longRun.session_id)).toBe('completed');
  });

  it('is ended as not reporting back once the session is past the run limit', async () => {
    const overdue = await createSession('overdue-run.example.com', 2 * 60 * MINUTE);
    // The run stays in RUNNING at its first step: as if Step Functions itself lost track of it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => {
      release = done;
    });
    sabotage.set(overdue.session_id, {
      'step-mark-active': async () => {
        await held;
        throw new Error('released');
      },
    });
    await lossyCtx.workflow.start(overdue.run_id, { session_id: overdue.session_id });
    expect((await lossyCtx.workflow.describe(overdue.run_id))?.status).toBe('RUNNING');

    const result = await sweepStaleSessions(lossyCtx);
    expect(result.ended).toContainEqual({
      session_id: overdue.session_id,
      status: 'failed',
      cause: 'no_report',
    });
    const polled = await poll(overdue.session_id);
    expect(polled.body.session).toMatchObject({ status: 'failed', failure_reason: STALE_REASONS.noReport });

    // The run's later steps find the session ended and change nothing.
    release();
    await lossy.idle();
    expect((await poll(overdue.session_id)).body.session).toMatchObject({
      status: 'failed',
      failure_reason: 'The investigation did not report back.',
    });
  });
});

describe('a run that ended while its status-change event was lost', () => {
  it('FAILED (even MarkFailed could not write): the session gets failed with the engine reason', async () => {
    const session = await createSession('lost-failure.example.com', 2 * 60 * MINUTE);
    const broken = async () => {
      throw new Error('step broken for the test');
    };
    sabotage.set(session.session_id, { 'step-assess': broken, 'step-mark-failed': broken });
    await lossyCtx.workflow.start(session.run_id, { session_id: session.session_id });
    await lossy.idle();
    expect((await lossyCtx.workflow.describe(session.run_id))?.status).toBe('FAILED');
    expect(await statusOf(session.session_id)).toBe('active'); // nothing wrote the outcome
    expect(lostEvents.length).toBeGreaterThan(0);

    const result = await sweepStaleSessions(lossyCtx);
    expect(result.ended).toContainEqual({
      session_id: session.session_id,
      status: 'failed',
      cause: 'run_failed',
    });
    expect((await poll(session.session_id)).body.session).toMatchObject({
      status: 'failed',
      failure_reason: REASONS.engine,
    });
  });

  it('ABORTED (stopped from the console): the session gets canceled', async () => {
    const session = await createSession('lost-abort.example.com', 2 * 60 * MINUTE);
    sabotage.set(session.session_id, {
      'step-run-tool': async (event) => {
        await new Promise((wake) => setTimeout(wake, 300));
        return { tool: (event as { tool: string }).tool, status: 'skipped', recorded: false };
      },
    });
    await lossyCtx.workflow.start(session.run_id, { session_id: session.session_id });
    await waitForStatus(session.session_id, 'active');
    const sfn = new SFNClient({
      region: config().AWS_REGION,
      endpoint: lossy.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await sfn.send(
      new StopExecutionCommand({ executionArn: executionArnFor(lossy.stateMachineArn, session.run_id) }),
    );
    await lossy.idle();
    expect((await lossyCtx.workflow.describe(session.run_id))?.status).toBe('ABORTED');
    expect(await statusOf(session.session_id)).toBe('active');

    const result = await sweepStaleSessions(lossyCtx);
    expect(result.ended).toContainEqual({
      session_id: session.session_id,
      status: 'canceled',
      cause: 'run_aborted',
    });
    const polled = await poll(session.session_id);
    expect(polled.status).toBe(200);
    expect(polled.body.session.status).toBe('canceled');
    expect(polled.body.events.at(-1)).toMatchObject({
      type: 'status_changed',
      detail: { status: 'canceled', reason: REASONS.aborted },
    });
  });

  it('SUCCEEDED without its completion written: the session is failed as not reporting back', async () => {
    const session = await createSession('lost-success.example.com', 2 * 60 * MINUTE);
    sabotage.set(session.session_id, {
      'step-persist': async () => ({ session_id: session.session_id, status: 'active' }),
    });
    await lossyCtx.workflow.start(session.run_id, { session_id: session.session_id });
    await lossy.idle();
    expect((await lossyCtx.workflow.describe(session.run_id))?.status).toBe('SUCCEEDED');
    expect(await statusOf(session.session_id)).toBe('active');

    const result = await sweepStaleSessions(lossyCtx);
    expect(result.ended).toContainEqual({
      session_id: session.session_id,
      status: 'failed',
      cause: 'no_report',
    });
  });
});

describe('sessions that already ended', () => {
  it('are never touched, even when every session in the table is old enough to be stale', async () => {
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: apiKey,
      body: { entity: '203.0.113.9' },
    });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('completed');
    const before = (await poll(started.body.session_id)).body;

    const dayLater = { ...lossyCtx, now: () => new Date(Date.now() + 24 * 60 * MINUTE) };
    const result = await sweepStaleSessions(dayLater);
    expect(endedIds(result)).not.toContain(started.body.session_id);
    const after = (await poll(started.body.session_id)).body;
    expect(after.session).toEqual(before.session);
    expect(after.events).toHaveLength(before.events.length);

    // The transition itself refuses to leave a terminal status.
    expect(await endSession(lifecycleContext(), started.body.session_id, 'failed', 'x')).toBe(false);
    const moved = await lifecycleContext().sessions.transition(started.body.session_id, 'failed', {
      failure_reason: 'x',
    });
    expect(moved).toMatchObject({ ok: false, session: { status: 'completed' } });
  });

  it('is left as it is when it ends between the listing and the write (a cancel racing the sweep)', async () => {
    const session = await createSession('racing-cancel.example.com', 10 * MINUTE);
    const ctx = lifecycleContext();
    const racing: LifecycleContext = {
      ...lossyCtx,
      workflow: {
        ...lossyCtx.workflow,
        describe: async (runId) => {
          if (runId === session.run_id)
            await endSession(ctx, session.session_id, 'canceled', 'canceled by the caller');
          return lossyCtx.workflow.describe(runId);
        },
      },
    };
    const result = await sweepStaleSessions(racing);
    expect(endedIds(result)).not.toContain(session.session_id);
    expect(await statusOf(session.session_id)).toBe('canceled');
  });
});

describe('bounds', () => {
  it('reads at most maxSessions per run and reports that more are waiting', async () => {
    const sessions = [
      await createSession('bounded-1.example.com', 20 * MINUTE),
      await createSession('bounded-2.example.com', 19 * MINUTE),
      await createSession('bounded-3.example.com', 18 * MINUTE),
    ];
    const first = await sweepStaleSessions(lossyCtx, { maxSessions: 2 });
    expect(first).toMatchObject({ examined: 2, more: true });
    // Oldest first.
    expect(endedIds(first)).toEqual(sessions.slice(0, 2).map((s) => s.session_id));
    // The index is eventually consistent on AWS; DynamoDB Local is immediate.
    const second = await sweepStaleSessions(lossyCtx, { maxSessions: 2 });
    expect(endedIds(second)).toEqual([sessions[2]!.session_id]);
    expect(second.more).toBe(false);
  });

  it('refuses to run without the workflow timeout it derives its limits from', async () => {
    const ctx = lifecycleContext();
    const unset = { ...ctx, cfg: { ...ctx.cfg, SIS_WORKFLOW_TIMEOUT_SECONDS: undefined } };
    await expect(sweepStaleSessions(unset)).rejects.toThrow(/SIS_WORKFLOW_TIMEOUT_SECONDS/);
  });
});
