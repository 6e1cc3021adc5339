import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isContractError } from '../../support/fuzz-http';
import { startTestService, type TestService } from '../../support/local-service';
import {
  type CallRecord,
  percentile,
  ReliableClient,
  sessionCensus,
  statusTrail,
  TERMINAL,
} from '../../support/reliability-client';

/** Generous: a busy 2-core CI machine can be several times slower than a quiet one. */
const HEAVY_TEST_TIMEOUT_MS = 300_000;

/**
 * Concurrency over HTTP against the whole local runtime (real workflow, real DynamoDB Local):
 *
 * 1. SESSIONS background investigations started at once by 5 keys, each key polling its own
 *    sessions and probing the others' (always 403). Every session must reach a terminal state with
 *    one clean status trail; the sessions table must hold exactly the sessions started (none lost,
 *    none duplicated) and none may stay open.
 * 2. Keys disabled and rotated while requests flow: a request sent after the disable (or a grace-0
 *    rotation) has answered must be refused with 401, and racing rotations leave exactly one
 *    working secret.
 *
 * SIS_RELIABILITY_SESSIONS sets the count: 40 in the default suite, 200 in `npm run test:soak`.
 */
const SESSIONS = Number(process.env.SIS_RELIABILITY_SESSIONS ?? 40);
const KEYS = 5;
const generous = { rate_per_second: 10_000, burst: 5_000 };

let service: TestService;
let http: ReliableClient;

beforeAll(async () => {
  // A load test of the store and the workflow, not of the spending caps (investigation-spending-caps):
  // the soak's 200 sessions by 5 keys would pass the default running cap.
  service = await startTestService({ env: { SIS_MAX_RUNNING_INVESTIGATIONS: '0' } });
  http = new ReliableClient(() => service.baseUrl);
});

afterAll(async () => {
  await service?.stop();
});

const ENTITIES = (i: number) =>
  [
    { type: 'ip', value: `198.51.100.${i % 250}` },
    { type: 'domain', value: `concurrency-${i}.example.com` },
    { type: 'user', value: `user${i}@contoso.example` },
    { type: 'host', value: `ws-${String(i).padStart(4, '0')}` },
  ][i % 4];

describe(`${SESSIONS} background investigations by ${KEYS} keys at once`, () => {
  it(
    'ends every session once, owner-checked, nothing lost, duplicated or left active',
    async () => {
      const keys = await Promise.all(
        Array.from({ length: KEYS }, (_, k) =>
          service.createKey({
            name: `tenant key ${k}`,
            scopes: ['investigations:read', 'investigations:write'],
            rate_limit: generous,
          }),
        ),
      );
      const before = await sessionCensus(service.env);
      const started = performance.now();

      const starts = await Promise.all(
        Array.from({ length: SESSIONS }, (_, i) => {
          const owner = i % KEYS;
          return http
            .call('POST', '/api/v1/investigations/start', {
              key: keys[owner]!.apiKey,
              headers: { 'idempotency-key': `concurrency-${i}` },
              body: { entity: ENTITIES(i), background: true },
            })
            .then((answer) => ({ owner, answer }));
        }),
      );
      const startMs = performance.now() - started;
      for (const { answer } of starts) expect(answer.status, answer.text).toBe(202);
      const sessions = starts.map(({ owner, answer }) => ({
        owner,
        id: answer.json.session_id as string,
        runId: answer.json.run_id as string,
      }));
      expect(new Set(sessions.map((s) => s.id)).size).toBe(SESSIONS);
      expect(new Set(sessions.map((s) => s.runId)).size).toBe(SESSIONS);

      // Pollers: one per key over its own sessions; each round also probes another key's session.
      const crossKey: CallRecord[] = [];
      let polls = 0;
      const finals = new Map<string, Awaited<ReturnType<ReliableClient['once']>>>();
      await Promise.all(
        keys.map(async (key, k) => {
          const mine = sessions.filter((s) => s.owner === k);
          const others = sessions.filter((s) => s.owner !== k);
          const open = new Set(mine.map((s) => s.id));
          const deadline = Date.now() + 120_000;
          while (open.size > 0) {
            for (const id of [...open]) {
              const answer = await http.call('GET', `/api/v1/public/sessions/${id}`, { key: key.apiKey });
              polls++;
              expect(answer.status, answer.text).toBe(200);
              expect(answer.json.session.session_id).toBe(id);
              if (TERMINAL.has(answer.json.session.status)) {
                finals.set(id, answer);
                open.delete(id);
              }
              const foreign = others[Math.floor(Math.random() * others.length)]!;
              const sentAt = Date.now();
              const probe = await http.once('GET', `/api/v1/public/sessions/${foreign.id}`, {
                key: key.apiKey,
              });
              crossKey.push({
                method: 'GET',
                path: foreign.id,
                status: probe.status,
                sentAt,
                doneAt: Date.now(),
              });
              expect(probe.status, `key ${k} read session of key ${foreign.owner}`).toBe(403);
              expect(isContractError(probe.json)).toBe(true);
              expect(probe.text).not.toContain(foreign.runId);
            }
            if (Date.now() > deadline) throw new Error(`key ${k}: ${open.size} sessions never ended`);
            await new Promise((wake) => setTimeout(wake, 100));
          }
        }),
      );
      const allEndedMs = performance.now() - started;
      await service.stepFunctions.idle();

      // Every session: terminal, completed, with exactly one trail initialized → active → completed.
      const outcomes: Record<string, number> = {};
      for (const session of sessions) {
        const final = finals.get(session.id)!;
        const status = final.json.session.status as string;
        outcomes[status] = (outcomes[status] ?? 0) + 1;
        expect(statusTrail(final), session.id).toEqual(['initialized', 'active', 'completed']);
        const tools = (final.json.tool_calls as { name: string }[]).map((c) => c.name);
        expect(new Set(tools).size, `${session.id} tool calls recorded once each`).toBe(tools.length);
        expect(tools.length).toBeGreaterThan(0);
      }
      expect(outcomes).toEqual({ completed: SESSIONS });

      // The table agrees: exactly the sessions started, all closed, each owned by its starter.
      const after = await sessionCensus(service.env);
      const added = [...after.sessions.keys()].filter((id) => !before.sessions.has(id));
      expect(added.sort()).toEqual(sessions.map((s) => s.id).sort());
      for (const session of sessions) {
        const stored = after.sessions.get(session.id)!;
        expect(stored.owner).toBe(keys[session.owner]!.keyId);
        expect(stored.runId).toBe(session.runId);
      }
      const open = [...after.sessions.values()].filter((s) => !TERMINAL.has(s.status));
      expect(open).toEqual([]);

      // A retried start with the same Idempotency-Key returns the first session, never a second one.
      const retry = await http.call('POST', '/api/v1/investigations/start', {
        key: keys[0]!.apiKey,
        headers: { 'idempotency-key': 'concurrency-0' },
        body: { entity: ENTITIES(0), background: true },
      });
      expect(retry.json.session_id).toBe(sessions[0]!.id);
      expect((await sessionCensus(service.env)).sessions.size).toBe(after.sessions.size);

      const latencies = sessions.map(
        (s) =>
          Date.parse(finals.get(s.id)!.json.session.completed_at) -
          Date.parse(finals.get(s.id)!.json.session.created_at),
      );
      console.info(
        `[concurrency] ${SESSIONS} sessions by ${KEYS} keys: started ${SESSIONS}, terminal ${finals.size}, lost 0, duplicated 0, open 0; ` +
          `all started in ${startMs.toFixed(0)} ms, all ended in ${allEndedMs.toFixed(0)} ms; ` +
          `start→completed p50 ${percentile(latencies, 0.5)} ms, p95 ${percentile(latencies, 0.95)} ms; ` +
          `${polls} owner polls, ${crossKey.length} cross-key polls (all 403); answers ${JSON.stringify(http.statusCounts())}`,
      );
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});

describe('revocation while requests flow', () => {
  it('refuses every request sent after a disable or a grace-0 rotation has answered', async () => {
    const victims = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        service.createKey({ name: `flowing ${i}`, scopes: ['incidents:read'], rate_limit: generous }),
      ),
    );
    const rotated = await service.createKey({
      name: 'rotated while flowing',
      scopes: ['incidents:read'],
      rate_limit: generous,
    });
    const records: { key: string; sentAt: number; status: number }[] = [];
    let stop = false;
    const flow = (key: string) => async () => {
      while (!stop) {
        const sentAt = Date.now();
        const answer = await http.once('GET', '/api/v1/incidents?limit=1', { key });
        expect(answer.status, answer.text).toBeLessThan(500);
        records.push({ key, sentAt, status: answer.status });
      }
    };
    // Three concurrent request loops per key.
    const loops = [...victims.map((v) => v.apiKey), rotated.apiKey].flatMap((key) =>
      [1, 2, 3].map(() => flow(key)()),
    );
    const revokedAt = new Map<string, number>();
    let freshSecret = '';
    const admin = async () => {
      for (const victim of victims) {
        await new Promise((wake) => setTimeout(wake, 150));
        const answer = await http.once('POST', `/api/v1/admin/keys/${victim.keyId}/disable`, {
          key: service.adminKey,
        });
        expect(answer.status).toBe(200);
        revokedAt.set(victim.apiKey, Date.now());
      }
      const answer = await http.once('POST', `/api/v1/admin/keys/${rotated.keyId}/rotate`, {
        key: service.adminKey,
        body: { grace_period_seconds: 0 },
      });
      expect(answer.status).toBe(200);
      revokedAt.set(rotated.apiKey, Date.now());
      freshSecret = answer.json.api_key;
      const newLoops = [1, 2].map(() => flow(freshSecret)());
      await new Promise((wake) => setTimeout(wake, 400));
      stop = true;
      await Promise.all(newLoops);
    };
    await Promise.all([admin(), ...loops]);

    let admittedAfter = 0;
    let refusedAfter = 0;
    for (const [key, at] of revokedAt) {
      const mine = records.filter((r) => r.key === key);
      expect(
        mine.filter((r) => r.sentAt < at && r.status === 200).length,
        'the key worked before',
      ).toBeGreaterThan(0);
      const after = mine.filter((r) => r.sentAt > at);
      admittedAfter += after.filter((r) => r.status !== 401).length;
      refusedAfter += after.filter((r) => r.status === 401).length;
      expect(after.length, 'requests kept flowing after the revocation').toBeGreaterThan(0);
      expect(after.map((r) => r.status)).toEqual(after.map(() => 401));
    }
    const fresh = records.filter((r) => r.key === freshSecret);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.map((r) => r.status)).toEqual(fresh.map(() => 200));
    console.info(
      `[revocation] ${records.length} requests on 5 keys while 4 were disabled and 1 rotated (grace 0): ` +
        `${refusedAfter} sent after a revocation answered, all 401 (${admittedAfter} admitted)`,
    );
  });

  it('leaves exactly one working secret when rotations of one key race', async () => {
    const key = await service.createKey({ name: 'raced', scopes: ['incidents:read'], rate_limit: generous });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        http.once('POST', `/api/v1/admin/keys/${key.keyId}/rotate`, {
          key: service.adminKey,
          body: { grace_period_seconds: 0 },
        }),
      ),
    );
    for (const answer of answers) {
      expect([200, 409], answer.text).toContain(answer.status);
      expect(isContractError(answer.json) || answer.status === 200).toBe(true);
    }
    const issued = answers.filter((a) => a.status === 200).map((a) => a.json.api_key as string);
    expect(issued.length).toBeGreaterThan(0);
    const working = [];
    for (const secret of [key.apiKey, ...issued]) {
      const answer = await http.once('GET', '/api/v1/incidents?limit=1', { key: secret });
      expect([200, 401]).toContain(answer.status);
      if (answer.status === 200) working.push(secret);
    }
    expect(working).toHaveLength(1);
    expect(issued).toContain(working[0]);
    console.info(
      `[revocation] 6 racing rotations: ${issued.length} answered 200, ${6 - issued.length} answered 409; 1 secret works`,
    );
  });
});
