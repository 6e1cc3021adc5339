import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, startTestService, type TestService } from '../../support/local-service';
import { sis } from '../../support/sis-cli';

/**
 * GET /api/v1/sessions (listSessions) and `sis sessions list`: the caller's own sessions, newest
 * first, with the status, verdict, entity and since filters and signed cursors.
 */
let service: TestService;
let alice: string;
let bob: string;
const aliceSessions: string[] = [];
let between: string;

const fast = { rate_per_second: 1000, burst: 1000 };

async function investigate(key: string, value: string): Promise<string> {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity: value },
  });
  expect(started.status, started.text).toBe(200);
  return started.body.session_id;
}

beforeAll(async () => {
  service = await startTestService();
  alice = (await service.createKey({ name: 'alice', rate_limit: fast })).apiKey;
  bob = (await service.createKey({ name: 'bob', rate_limit: fast })).apiKey;
  aliceSessions.push(await investigate(alice, '203.0.113.7'));
  await new Promise((pause) => setTimeout(pause, 20));
  between = new Date().toISOString();
  aliceSessions.push(await investigate(alice, 'example.com'));
  aliceSessions.push(await investigate(alice, '198.51.100.23'));
  await investigate(bob, '203.0.113.7');
});

afterAll(async () => {
  await service?.stop();
});

const ids = (body: { sessions: { session_id: string }[] }) => body.sessions.map((s) => s.session_id);

describe('GET /api/v1/sessions', () => {
  it("lists the caller's own sessions, newest first, and no other key's", async () => {
    const listed = await service.call('GET', '/api/v1/sessions', { key: alice });
    expect(listed.status).toBe(200);
    expect(ids(listed.body)).toEqual([...aliceSessions].reverse());
    expect(listed.body.next_cursor).toBeNull();
    expect(listed.body.sessions[0]).toMatchObject({
      status: 'completed',
      entity: { type: 'ip', value: '198.51.100.23' },
      persona: 'SOC Analyst',
    });
    const asBob = await service.call('GET', '/api/v1/sessions', { key: bob });
    expect(asBob.body.sessions).toHaveLength(1);
    expect(ids(asBob.body)).not.toContain(aliceSessions[0]);
  });

  it('filters by entity, status, verdict and since', async () => {
    const byEntity = await service.call('GET', '/api/v1/sessions?entity=203.0.113.7', { key: alice });
    expect(ids(byEntity.body)).toEqual([aliceSessions[0]]);
    const completed = await service.call('GET', '/api/v1/sessions?status=completed', { key: alice });
    expect(completed.body.sessions).toHaveLength(3);
    const failed = await service.call('GET', '/api/v1/sessions?status=failed', { key: alice });
    expect(failed.body.sessions).toEqual([]);
    const verdict = completed.body.sessions[0].verdict;
    const byVerdict = await service.call('GET', `/api/v1/sessions?verdict=${verdict}`, { key: alice });
    expect(byVerdict.body.sessions.length).toBeGreaterThan(0);
    expect(byVerdict.body.sessions.every((s: { verdict: string }) => s.verdict === verdict)).toBe(true);
    const since = await service.call('GET', `/api/v1/sessions?since=${encodeURIComponent(between)}`, {
      key: alice,
    });
    expect(ids(since.body)).toEqual([aliceSessions[2], aliceSessions[1]]);
  });

  it('pages with signed cursors bound to the key and the filters', async () => {
    const first = await service.call('GET', '/api/v1/sessions?limit=2', { key: alice });
    expect(ids(first.body)).toEqual([aliceSessions[2], aliceSessions[1]]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await service.call(
      'GET',
      `/api/v1/sessions?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key: alice },
    );
    expect(ids(second.body)).toEqual([aliceSessions[0]]);
    expect(second.body.next_cursor).toBeNull();
    const foreign = await service.call(
      'GET',
      `/api/v1/sessions?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key: bob },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject(errorShape('invalid_cursor'));
  });

  it('needs investigations:read and validates its filters', async () => {
    const searchOnly = (await service.createKey({ name: 'search only', scopes: ['search:read'] })).apiKey;
    expect((await service.call('GET', '/api/v1/sessions', { key: searchOnly })).status).toBe(403);
    const bad = await service.call('GET', '/api/v1/sessions?status=finished', { key: alice });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject(errorShape('validation_error'));
  });
});

describe('sis sessions list', () => {
  it('is what `sis sessions` alone runs: a table, one line per session', async () => {
    const run = await sis(['sessions'], { SIS_API_URL: service.baseUrl, SIS_API_KEY: alice });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CREATED\s+SESSION\s+STATUS\s+VERDICT\s+RISK\s+ENTITY\s+SUMMARY$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[2])).toEqual([...aliceSessions].reverse());
  });

  it('passes the filters and follows the cursors with --all --json', async () => {
    const run = await sis(
      ['sessions', 'list', '--entity', 'example.com', '--status', 'completed', '--json'],
      {
        SIS_API_URL: service.baseUrl,
        SIS_API_KEY: alice,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(ids(JSON.parse(run.stdout))).toEqual([aliceSessions[1]]);
    const all = await sis(['sessions', 'list', '--limit', '1', '--all', '--since', '1h', '--json'], {
      SIS_API_URL: service.baseUrl,
      SIS_API_KEY: alice,
    });
    expect(ids(JSON.parse(all.stdout))).toEqual([...aliceSessions].reverse());
  });
});
