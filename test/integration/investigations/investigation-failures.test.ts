import { SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePersona } from '../../../shared/domain/investigation';
import { executionArnFor } from '../../../shared/platform/workflow-engine';
import { newId } from '../../../shared/services/investigations/investigations';
import { lifecycleContext } from '../../../shared/services/sessions/lifecycle-context';
import type { SessionRecord } from '../../../shared/store/sessions/records';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * The workflow's failure paths over the whole local runtime, driven by the test-only fault seam
 * (SIS_FAULT_INJECTION, honoured only against DynamoDB Local): a failing tool, a failing engine step,
 * a cancel while tools run, and a run stopped outside the API.
 */
const TOOL_FAULT = 'tool-fault.example.com';
const ENGINE_FAULT = 'engine-fault.example.com';
const SLOW = 'slow.example.com';
const SLOW_TOO = 'slow-too.example.com';
const SLOWER = 'slower.example.com';

let service: TestService;
let key: string;
let keyId: string;

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_FAULT_INJECTION: [
        `step-run-tool@${TOOL_FAULT}#domain_analysis=throw`,
        `step-assess@${ENGINE_FAULT}=throw`,
        `step-run-tool@${SLOW}=delay:1500`,
        `step-run-tool@${SLOW_TOO}=delay:1500`,
        `step-run-tool@${SLOWER}=delay:4000`,
      ].join(','),
      // A short synchronous wait bound, so the hand-over to polling is exercised.
      SIS_SYNC_WAIT_SECONDS: '2',
    },
  });
  ({ apiKey: key, keyId } = await service.createKey({ name: 'failure paths' }));
});

afterAll(async () => {
  await service?.stop();
});

const start = (entity: string, extra: Record<string, unknown> = {}) =>
  service.call('POST', '/api/v1/investigations/start', { key, body: { entity, ...extra } });
const poll = (sessionId: string) => service.call('GET', `/api/v1/public/sessions/${sessionId}`, { key });
const cancel = (sessionId: string) =>
  service.call('POST', `/api/v1/public/sessions/${sessionId}/cancel`, { key });

async function pollUntil(sessionId: string, done: (status: string) => boolean) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await poll(sessionId);
    expect(answer.status).toBe(200);
    if (done(answer.body.session.status)) return answer;
    if (Date.now() > deadline) throw new Error(`session ${sessionId} stuck in ${answer.body.session.status}`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}
const ended = (status: string) => ['completed', 'failed', 'canceled'].includes(status);

describe('a failing tool', () => {
  it('is recorded as a failed tool call and the investigation still completes', async () => {
    const answer = await start(TOOL_FAULT, { include_tool_calls: true });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('completed');
    const failed = answer.body.tool_calls.filter((c: { status: string }) => c.status === 'failed');
    expect(failed).toEqual([
      expect.objectContaining({
        name: 'domain_analysis',
        status: 'failed',
        error: 'The tool could not be run.',
      }),
    ]);
    expect(answer.body.tool_calls.some((c: { status: string }) => c.status === 'succeeded')).toBe(true);
    expect(answer.body.report.coverage.tools_failed).toEqual(['domain_analysis']);

    const polled = await poll(answer.body.session_id);
    expect(polled.body.events).toContainEqual(
      expect.objectContaining({
        type: 'tool_failed',
        detail: expect.objectContaining({ tool: 'domain_analysis' }),
      }),
    );
  });
});

describe('a failing engine step', () => {
  it('ends the session failed; the poll still answers 200 with the reason', async () => {
    const started = await start(ENGINE_FAULT, { background: true });
    expect(started.status).toBe(202);
    const answer = await pollUntil(started.body.session_id, ended);
    expect(answer.status).toBe(200);
    expect(answer.body.session).toMatchObject({
      status: 'failed',
      failure_reason: 'The investigation engine failed.',
      completed_at: expect.any(String),
    });
    expect(answer.body.session.failure_reason).not.toMatch(/Injected|assess|Error/);
    expect(answer.body.events.at(-1)).toMatchObject({ type: 'status_changed', detail: { status: 'failed' } });
    expect(answer.body.messages.at(-1).role).toBe('assistant');
    // The tools ran before Assess failed: MarkFailed's transition published their calls (a rules run
    // keeps them with its results until the end), each with its events, before its own entries.
    const tools = answer.body.tool_calls.map((call: { name: string }) => call.name);
    expect(tools.length).toBeGreaterThan(0);
    const types = answer.body.events.map((e: { type: string }) => e.type);
    expect(types.filter((type: string) => type === 'tool_started')).toHaveLength(tools.length);
    expect(types.lastIndexOf('tool_succeeded')).toBeLessThan(types.lastIndexOf('status_changed'));

    const report = await service.call('GET', `/api/v1/sessions/${started.body.session_id}`, { key });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ status: 'failed', report: null, failure_reason: expect.any(String) });
  });

  it('answers a synchronous start with the failed result, not an error', async () => {
    const answer = await start(ENGINE_FAULT);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'failed', report: null, failure_reason: expect.any(String) });
  });
});

describe('synchronous wait bound', () => {
  it('hands back the session to poll (202) when the investigation outlasts the wait, and it still completes', async () => {
    const began = Date.now();
    const answer = await start(SLOWER);
    expect(answer.status).toBe(202);
    expect(Date.now() - began).toBeGreaterThanOrEqual(1_900);
    expect(answer.body).toMatchObject({
      session_id: expect.any(String),
      run_id: expect.any(String),
      session_url: expect.stringContaining(answer.body.session_id),
      status: 'active',
      message: expect.stringContaining('Poll'),
    });
    const done = await pollUntil(answer.body.session_id, ended);
    expect(done.body.session.status).toBe('completed');
  });
});

describe('cancel', () => {
  it('ends a running investigation canceled; canceling again is a 409', async () => {
    const started = await start(SLOW, { background: true });
    await pollUntil(started.body.session_id, (status) => status === 'active');
    const canceled = await cancel(started.body.session_id);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toEqual({ session_id: started.body.session_id, status: 'canceled' });

    const again = await cancel(started.body.session_id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject(errorShape('conflict'));

    // The tools still finishing when the run stopped change nothing.
    await service.stepFunctions.idle();
    const final = await poll(started.body.session_id);
    expect(final.body.session.status).toBe('canceled');
    expect(final.body.tool_calls).toEqual([]);
    expect(
      final.body.events
        .filter((e: { type: string }) => e.type === 'status_changed')
        .map((e: { detail: { status: string } }) => e.detail.status),
    ).toEqual(['initialized', 'active', 'canceled']);
    const report = await service.call('GET', `/api/v1/sessions/${started.body.session_id}`, { key });
    expect(report.body).toMatchObject({ status: 'canceled', report: null });
  });

  it('refuses to cancel a completed investigation (409)', async () => {
    const done = await start('203.0.113.9');
    expect(done.body.status).toBe('completed');
    const answer = await cancel(done.body.session_id);
    expect(answer.status).toBe(409);
  });

  it('writes a Standard run stopped outside the API (console, CLI) back as canceled', async () => {
    // Only Standard executions can be stopped (Express has no StopExecution): a session written as
    // the start route writes one that goes to Standard (a bedrock or connector run), its run started there.
    const ctx = lifecycleContext();
    const now = new Date();
    const session: SessionRecord = {
      session_id: newId('s', now),
      run_id: newId('r', now),
      owner_key_id: keyId,
      entity: { type: 'domain', value: SLOW_TOO },
      persona: resolvePersona().name,
      status: 'initialized',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      options: { background: true, include_tool_calls: false, include_raw_results: false },
      workflow: 'standard',
    };
    const initialized = {
      kind: 'event' as const,
      at: session.created_at,
      body: { type: 'status_changed', detail: { status: 'initialized' } },
    };
    expect((await ctx.sessions.create(session, [initialized])).created).toBe(true);
    await ctx.workflow.start(session.run_id, { session_id: session.session_id }, 'standard');
    await pollUntil(session.session_id, (status) => status === 'active');
    const sfn = new SFNClient({
      endpoint: service.env.SIS_SFN_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await sfn.send(
      new StopExecutionCommand({
        executionArn: executionArnFor(service.env.SIS_STATE_MACHINE_ARN!, session.run_id),
      }),
    );
    const answer = await pollUntil(session.session_id, ended);
    expect(answer.body.session.status).toBe('canceled');
    expect(answer.body.events.at(-1)).toMatchObject({
      type: 'status_changed',
      detail: { status: 'canceled', reason: 'The investigation run was stopped.' },
    });
  });

  it('an Express run cannot be stopped outside the API (as on AWS); the cancel route still ends it', async () => {
    const started = await start(SLOW_TOO, { background: true });
    await pollUntil(started.body.session_id, (status) => status === 'active');
    expect((await lifecycleContext().sessions.get(started.body.session_id))?.workflow).toBe('express');
    const sfn = new SFNClient({
      endpoint: service.env.SIS_SFN_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const expressArn = `${service.env.SIS_EXPRESS_STATE_MACHINE_ARN!.replace(':stateMachine:', ':express:')}:${started.body.run_id}:x`;
    await expect(sfn.send(new StopExecutionCommand({ executionArn: expressArn }))).rejects.toMatchObject({
      name: 'InvalidArn',
    });
    expect((await cancel(started.body.session_id)).status).toBe(200);
    await service.stepFunctions.idle();
    const answer = await pollUntil(started.body.session_id, ended);
    expect(answer.body.session.status).toBe('canceled');
  });
});
