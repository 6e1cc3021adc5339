import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * Investigations over HTTP through the whole local runtime: the local gateway and real authorizer,
 * the real start/poll/report/cancel handlers, the real ASL run by the local Step Functions endpoint
 * with the real step handlers, all against DynamoDB Local.
 */
let service: TestService;
let owner: string;
let other: string;
let readOnly: string;

beforeAll(async () => {
  service = await startTestService();
  owner = (await service.createKey({ name: 'investigations owner' })).apiKey;
  other = (await service.createKey({ name: 'another integration' })).apiKey;
  readOnly = (await service.createKey({ name: 'read only', scopes: ['investigations:read'] })).apiKey;
});

afterAll(async () => {
  await service?.stop();
});

const TERMINAL = ['completed', 'failed', 'canceled'];

const start = (body: unknown, key = owner, headers: Record<string, string> = {}) =>
  service.call('POST', '/api/v1/investigations/start', { key, body, headers });
const poll = (sessionId: string, key = owner, after?: string) =>
  service.call(
    'GET',
    `/api/v1/public/sessions/${sessionId}${after ? `?after=${encodeURIComponent(after)}` : ''}`,
    { key },
  );

async function pollUntilEnded(sessionId: string, key = owner) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await poll(sessionId, key);
    expect(answer.status).toBe(200);
    if (TERMINAL.includes(answer.body.session.status)) return answer;
    if (Date.now() > deadline) throw new Error(`session ${sessionId} still ${answer.body.session.status}`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

describe('background investigation', () => {
  let sessionId: string;

  it('answers 202 at once with session_id, run_id and session_url', async () => {
    const started = await start({ entity: { type: 'ip', value: '203.0.113.66' }, background: true });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({
      session_id: expect.stringMatching(/^s_[0-9A-Z]{26}$/),
      run_id: expect.stringMatching(/^r_[0-9A-Z]{26}$/),
      session_url: `${service.baseUrl}/sessions/${started.body.session_id}`,
      status: 'initialized',
    });
    sessionId = started.body.session_id;
  });

  it('moves to completed with messages, events and tool calls in the poll', async () => {
    const ended = await pollUntilEnded(sessionId);
    const { session, messages, events, tool_calls: toolCalls } = ended.body;
    expect(session).toMatchObject({
      session_id: sessionId,
      status: 'completed',
      entity: { type: 'ip', value: '203.0.113.66' },
      persona: 'SOC Analyst',
      tlp: 'amber',
      risk_score: expect.any(Number),
      verdict: expect.stringMatching(/^(benign|suspicious|malicious|unknown)$/),
      completed_at: expect.any(String),
    });
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(messages.at(-1).content).toEqual(expect.any(String));
    const types = events.map((e: { type: string }) => e.type);
    expect(types[0]).toBe('status_changed');
    expect(types).toContain('tool_started');
    expect(types).toContain('tool_succeeded');
    expect(types).toContain('report_ready');
    expect(events.at(-1)).toMatchObject({ type: 'status_changed', detail: { status: 'completed' } });
    expect(toolCalls.length).toBeGreaterThanOrEqual(3);
    for (const call of toolCalls) {
      expect(call).toMatchObject({
        tool_call_id: expect.any(String),
        name: expect.any(String),
        status: 'succeeded',
        input: { entity: { type: 'ip', value: '203.0.113.66' } },
        started_at: expect.any(String),
        duration_ms: expect.any(Number),
      });
    }
    // Every tool planned ran once.
    expect(new Set(toolCalls.map((c: { name: string }) => c.name)).size).toBe(toolCalls.length);
  });

  it('serves the report with summary, risk score, verdict, entities and findings', async () => {
    const report = await service.call('GET', `/api/v1/sessions/${sessionId}`, { key: owner });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      session_id: sessionId,
      status: 'completed',
      entity: { type: 'ip', value: '203.0.113.66' },
      persona: 'SOC Analyst',
      tlp: 'amber',
      report: {
        summary: expect.any(String),
        risk_score: expect.any(Number),
        verdict: expect.any(String),
        entities: expect.arrayContaining([{ type: 'ip', value: '203.0.113.66', role: 'investigated' }]),
        findings: expect.any(Array),
      },
    });
    expect(report.body.report.risk_score).toBeGreaterThanOrEqual(0);
    expect(report.body.report.risk_score).toBeLessThanOrEqual(100);
  });

  it('returns only newer history after a cursor, and refuses a cursor of another session or key', async () => {
    const full = await poll(sessionId);
    const cursor = full.body.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const nothingNew = await poll(sessionId, owner, cursor);
    expect(nothingNew.status).toBe(200);
    expect(nothingNew.body).toMatchObject({ messages: [], events: [], tool_calls: [], next_cursor: cursor });
    expect(nothingNew.body.session.status).toBe('completed');

    const other = await start({ entity: 'dc01', background: true });
    const foreign = await poll(other.body.session_id, owner, cursor);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject(errorShape('invalid_cursor'));
    expect((await poll(sessionId, owner, 'not-a-cursor')).status).toBe(400);
    await pollUntilEnded(other.body.session_id);
  });

  it('pages history: a cursor taken mid-run yields exactly the rest', async () => {
    const started = await start({ entity: 'j.doe@contoso.example', background: true });
    const first = await poll(started.body.session_id);
    const ended = await pollUntilEnded(started.body.session_id);
    const rest = await poll(started.body.session_id, owner, first.body.next_cursor);
    const ids = (body: { messages: { message_id: string }[]; events: { event_id: string }[] }) => [
      ...body.messages.map((m) => m.message_id),
      ...body.events.map((e) => e.event_id),
    ];
    expect([...ids(first.body), ...ids(rest.body)].sort()).toEqual(ids(ended.body).sort());
    expect(ids(rest.body).filter((id) => ids(first.body).includes(id))).toEqual([]);
  });
});

describe('synchronous investigation', () => {
  it('returns the finished result with the report, without tool calls unless asked', async () => {
    const answer = await start({ entity: { type: 'domain', value: 'micros0ft-login.example.com' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      session_id: expect.any(String),
      run_id: expect.any(String),
      session_url: expect.stringContaining('/sessions/'),
      status: 'completed',
      report: {
        summary: expect.any(String),
        risk_score: expect.any(Number),
        verdict: expect.any(String),
        entities: expect.any(Array),
        findings: expect.any(Array),
      },
    });
    expect(answer.body).not.toHaveProperty('tool_calls');
    expect(answer.body).not.toHaveProperty('raw_results');
  });

  it('adds tool_calls only with include_tool_calls and raw_results only with include_raw_results', async () => {
    const withCalls = await start({ entity: '198.51.100.23', include_tool_calls: true });
    expect(withCalls.status).toBe(200);
    expect(withCalls.body.tool_calls.length).toBeGreaterThan(0);
    expect(withCalls.body).not.toHaveProperty('raw_results');

    const withRaw = await start({ entity: '198.51.100.23', include_raw_results: true });
    expect(withRaw.body).not.toHaveProperty('tool_calls');
    const tools = Object.keys(withRaw.body.raw_results);
    expect(tools).toContain('ip_classification');
    expect(withRaw.body.raw_results.ip_classification).toMatchObject({
      status: 'succeeded',
      facts: expect.any(Object),
    });

    // The flags shape the POST result only; polling is never filtered.
    const polled = await poll(withRaw.body.session_id);
    expect(polled.body.tool_calls.length).toBe(tools.length);
  });
});

describe('validation and access', () => {
  it('rejects a malformed entity or an unknown persona with 400 naming the field', async () => {
    const badEntity = await start({ entity: { type: 'ip', value: '999.1.1.1' }, background: true });
    expect(badEntity.status).toBe(400);
    expect(badEntity.body.error.details).toEqual([expect.objectContaining({ path: 'body.entity.value' })]);
    const badPersona = await start({ entity: '203.0.113.7', persona: 'Intern', background: true });
    expect(badPersona.status).toBe(400);
    expect(badPersona.body.error.details).toEqual([expect.objectContaining({ path: 'body.persona' })]);
    expect((await start({ background: true })).status).toBe(400);
    const badTlp = await start({ entity: '203.0.113.7', tlp: 'purple', background: true });
    expect(badTlp.status).toBe(400);
    expect(badTlp.body.error.details).toEqual([expect.objectContaining({ path: 'body.tlp' })]);
  });

  it('keeps the TLP a start asked for on the session, in the poll and in the report', async () => {
    // refresh_intel is for admin keys (issue #27): this key is refused, and starts without it.
    const refused = await start({ entity: '203.0.113.67', tlp: 'amber+strict', refresh_intel: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ path: 'body.refresh_intel' })]);
    const started = await start({ entity: '203.0.113.67', tlp: 'amber+strict' });
    expect(started.status).toBe(200);
    const polled = await poll(started.body.session_id);
    expect(polled.body.session.tlp).toBe('amber+strict');
    const report = await service.call('GET', `/api/v1/sessions/${started.body.session_id}`, { key: owner });
    expect(report.body).toMatchObject({ status: 'completed', tlp: 'amber+strict' });
  });

  it('keeps a session to its key: another key gets 403 on poll, report and cancel; unknown is 404', async () => {
    const started = await start({ entity: '203.0.113.7', background: true });
    const id = started.body.session_id;
    for (const answer of [
      await poll(id, other),
      await service.call('GET', `/api/v1/sessions/${id}`, { key: other }),
      await service.call('POST', `/api/v1/public/sessions/${id}/cancel`, { key: other }),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject(errorShape('forbidden'));
    }
    const unknown = await poll('s_00000000000000000000000000', owner);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(errorShape('not_found'));
    expect(
      (await service.call('GET', '/api/v1/sessions/s_00000000000000000000000000', { key: owner })).status,
    ).toBe(404);
    await pollUntilEnded(id);
  });

  it('needs investigations:write to start and investigations:read to poll', async () => {
    expect((await start({ entity: '203.0.113.7', background: true }, readOnly)).status).toBe(403);
    expect(
      (await service.call('POST', '/api/v1/public/investigations/start', { key: readOnly, body: {} })).status,
    ).toBe(403);
  });

  it('serves the start route under the public and proxy prefixes too', async () => {
    for (const path of [
      '/api/v1/public/investigations/start',
      '/proxy/agent/api/v1/public/investigations/start',
    ]) {
      const answer = await service.call('POST', path, {
        key: owner,
        body: { entity: 'ws-0142', background: true },
      });
      expect(answer.status).toBe(202);
      const polled = await service.call(
        'GET',
        `/proxy/agent/api/v1/public/sessions/${answer.body.session_id}`,
        {
          key: owner,
        },
      );
      expect(polled.status).toBe(200);
      await pollUntilEnded(answer.body.session_id);
    }
  });
});

describe('Idempotency-Key', () => {
  it('returns the first session for a retried start instead of starting another', async () => {
    const headers = { 'idempotency-key': `retry-${Date.now()}` };
    const body = { entity: '192.0.2.45', background: true };
    const first = await start(body, owner, headers);
    const again = await start(body, owner, headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.session_id).toBe(first.body.session_id);
    expect(again.body.run_id).toBe(first.body.run_id);

    const differentBody = await start({ ...body, entity: '192.0.2.46' }, owner, headers);
    expect(differentBody.status).toBe(409);
    // Keys are per API key: the same header value from another key is another request.
    const otherKey = await start(body, other, headers);
    expect(otherKey.status).toBe(202);
    expect(otherKey.body.session_id).not.toBe(first.body.session_id);
    const bad = await start(body, owner, { 'idempotency-key': 'has spaces in it' });
    expect(bad.status).toBe(400);
    await pollUntilEnded(first.body.session_id);
    await pollUntilEnded(otherKey.body.session_id, other);
  });
});
