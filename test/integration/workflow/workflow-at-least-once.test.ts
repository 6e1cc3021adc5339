import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../../shared/config';
import type { Entity } from '../../../shared/domain/core/entity';
import { STALE_REASONS } from '../../../shared/domain/investigation/stale-sessions';
import { ALARMED_FAILURE } from '../../../shared/metric-names';
import { lifecycleContext } from '../../../shared/services/sessions/lifecycle-context';
import { sweepStaleSessions } from '../../../shared/services/workflow/stale-session-sweeper';
import { graphRepositoryFromConfig } from '../../../shared/store/graph-repository';
import { VerdictsRepository } from '../../../shared/store/sessions/verdicts-repository';
import { onSessionsTable } from '../../../shared/store/sessions-table';
import { startTestService, type TestService } from '../../support/local-service';
import { captureLogs } from '../../support/log-capture';

/**
 * Express runs at least once: Step Functions may deliver a step, or start a whole execution, more
 * than once. Over the whole local runtime (DynamoDB Local, the real ASL run by the local interpreter
 * as the Express state machine, the real step handlers), the runtime's `atLeastOnce` seam makes
 * every duplicate certain: each Task invoked twice (at once, or again after the first finished) and
 * each execution started twice; then an execution delivered again after its run completed. Whatever
 * the duplicates, a session ends once with exactly one copy of everything it wrote: history entries,
 * graph edges, search postings, verdict. And an Express execution that dies mid-step (nothing
 * reports back, there is no execution record to describe) is ended by the sweeper at its limit.
 */
const STALLED = 'express-stalled.example.com';

let service: TestService;
let key: string;
/** Read by the local Step Functions at every start and Task: the tests change it between runs. */
const delivery: { executions?: number; steps?: number; mode?: 'concurrent' | 'sequential' } = {};

beforeAll(async () => {
  service = await startTestService({
    env: { SIS_FAULT_INJECTION: `step-run-tool@${STALLED}=delay:1500` },
    staleSessionSweep: false,
    stepFunctions: { atLeastOnce: delivery },
  });
  key = (await service.createKey({ name: 'at least once' })).apiKey;
});

afterAll(async () => {
  await service?.stop();
});

interface Polled {
  session: { session_id: string; status: string; completed_at?: string; verdict?: string };
  messages: { message_id: string; role: string }[];
  events: { event_id: string; type: string; detail: Record<string, unknown> }[];
  tool_calls: { tool_call_id: string; name: string; status: string }[];
}

const poll = async (sessionId: string): Promise<Polled> => {
  const answer = await service.call('GET', `/api/v1/public/sessions/${sessionId}`, { key });
  expect(answer.status).toBe(200);
  return answer.body;
};

async function investigate(entity: Entity): Promise<{ sessionId: string; runId: string }> {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity, background: true },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await service.stepFunctions.idle();
  return { sessionId: started.body.session_id, runId: started.body.run_id };
}

const countBy = <T>(items: T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>((counts, item) => {
    counts[key(item)] = (counts[key(item)] ?? 0) + 1;
    return counts;
  }, {});

/** Everything one completed session left, checked for exactly one copy of each thing. */
async function expectExactlyOnce(entity: Entity, sessionId: string) {
  const stored = await lifecycleContext().sessions.get(sessionId);
  expect(stored?.workflow).toBe('express');
  expect(stored?.status).toBe('completed');

  // History: every entry ID once; each planned tool's call, start and end once; each status once.
  const history = await poll(sessionId);
  const planned = history.events.find((e) => e.type === 'status_changed' && e.detail.status === 'active')
    ?.detail.tools as string[];
  expect(planned.length).toBeGreaterThan(0);
  const ids = [
    ...history.messages.map((m) => m.message_id),
    ...history.events.map((e) => e.event_id),
    ...history.tool_calls.map((c) => c.tool_call_id),
  ];
  expect(new Set(ids).size).toBe(ids.length);
  expect(history.tool_calls.map((c) => c.name).sort()).toEqual([...planned].sort());
  const events = countBy(history.events, (e) =>
    e.type === 'status_changed' ? `status:${e.detail.status}` : `${e.type}:${e.detail.tool ?? ''}`,
  );
  expect(events).toEqual({
    'status:initialized': 1,
    'status:active': 1,
    'status:completed': 1,
    'report_ready:': 1,
    ...Object.fromEntries(planned.map((tool) => [`tool_started:${tool}`, 1])),
    ...Object.fromEntries(
      history.tool_calls.map((c) => [
        `tool_${c.status === 'succeeded' ? 'succeeded' : 'failed'}:${c.name}`,
        1,
      ]),
    ),
  });
  expect(countBy(history.messages, (m) => m.role)).toEqual({ user: 1, assistant: 2 });

  // The subject's verdict: one, for this session.
  const verdicts = await onSessionsTable(config(), VerdictsRepository).forSubject(entity, 20);
  expect(verdicts.filter((v) => v.session_id === sessionId)).toHaveLength(1);

  // Graph: the investigation is evidence once, and every edge it wrote was counted once.
  const graph = graphRepositoryFromConfig(config());
  expect(await graph.evidenceIds(entity, 'investigation', 20)).toEqual([sessionId]);
  const { sides } = await graph.neighbours(entity, { limit: 100 });
  expect(sides.length).toBeGreaterThan(0);
  for (const side of sides) {
    expect(side.count, JSON.stringify(side)).toBe(1);
    expect(side.evidence.filter((id) => id === sessionId)).toHaveLength(1);
  }

  // Search: found once, completed, by its value.
  const found = await service.call('GET', `/api/v1/search?q=${encodeURIComponent(entity.value)}&limit=100`, {
    key,
  });
  expect(found.status).toBe(200);
  const hits = found.body.results.filter((r: { session_id: string }) => r.session_id === sessionId);
  expect(hits).toEqual([expect.objectContaining({ status: 'completed' })]);
  return history;
}

describe('an Express run whose every step and execution is delivered twice', () => {
  it('at once: two executions, each Task twice concurrently; one outcome, one copy of everything', async () => {
    Object.assign(delivery, { executions: 2, steps: 2, mode: 'concurrent' });
    const entity: Entity = { type: 'domain', value: 'twice-at-once.example.com' };
    const { sessionId } = await investigate(entity);
    await expectExactlyOnce(entity, sessionId);
  });

  it('one after the other: each Task delivered again after the first finished; one copy of everything', async () => {
    Object.assign(delivery, { executions: 1, steps: 2, mode: 'sequential' });
    const entity: Entity = { type: 'domain', value: 'twice-in-turn.example.com' };
    const { sessionId } = await investigate(entity);
    await expectExactlyOnce(entity, sessionId);
  });

  it('an execution delivered again after its run completed changes nothing', async () => {
    Object.assign(delivery, { executions: 1, steps: 1, mode: 'concurrent' });
    const entity: Entity = { type: 'domain', value: 'redelivered.example.com' };
    const { sessionId, runId } = await investigate(entity);
    const first = await expectExactlyOnce(entity, sessionId);

    // The same execution (name and input) started again on the Express state machine.
    const sfn = new SFNClient({
      region: 'us-east-1',
      endpoint: service.stepFunctions.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: service.stepFunctions.expressStateMachineArn,
        name: runId,
        input: JSON.stringify({ session_id: sessionId }),
      }),
    );
    await service.stepFunctions.idle();
    const again = await expectExactlyOnce(entity, sessionId);
    expect(again).toEqual(first);
  });
});

describe('an Express execution that dies mid-step', () => {
  it('is ended by the sweeper once past its 360 s limit, not before, with nothing reported back', async () => {
    Object.assign(delivery, { executions: 1, steps: 1, mode: 'concurrent' });
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key,
      body: { entity: { type: 'domain', value: STALLED }, background: true },
    });
    expect(started.status).toBe(202);
    const { session_id: sessionId, run_id: runId } = started.body;
    const sessions = lifecycleContext().sessions;
    const deadline = Date.now() + 10_000;
    while ((await sessions.get(sessionId))?.status !== 'active') {
      if (Date.now() > deadline) throw new Error('the run never became active');
      await new Promise((wake) => setTimeout(wake, 25));
    }
    // The host dies while the tools run: no later state, no event, no execution record.
    expect(service.stepFunctions.abandon(runId)).toBe(1);
    await service.stepFunctions.idle();
    const session = await sessions.get(sessionId);
    expect(session).toMatchObject({ status: 'active', workflow: 'express' });

    const at = (seconds: number) => ({
      ...lifecycleContext(),
      now: () => new Date(Date.parse(session!.created_at) + seconds * 1000),
    });
    const early = await sweepStaleSessions(at(359));
    expect(early.ended.map((e) => e.session_id)).not.toContain(sessionId);
    expect((await sessions.get(sessionId))?.status).toBe('active');

    const logs = captureLogs();
    let late: Awaited<ReturnType<typeof sweepStaleSessions>>;
    try {
      late = await sweepStaleSessions(at(361));
    } finally {
      logs.stop();
    }
    expect(late.ended).toContainEqual({ session_id: sessionId, status: 'failed', cause: 'no_report' });
    // Counted by the tenant's failures alarm (an alarmed ERROR line), not only written back.
    expect(logs.records()).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        session_id: sessionId,
        run_status: 'untracked',
        [ALARMED_FAILURE.field]: ALARMED_FAILURE.value,
      }),
    );
    const polled = await poll(sessionId);
    expect(polled.session).toMatchObject({ status: 'failed', failure_reason: STALE_REASONS.noReport });
    expect(polled.events.filter((e) => e.type === 'status_changed').map((e) => e.detail.status)).toEqual([
      'initialized',
      'active',
      'failed',
    ]);
  });
});
