import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { stateChanges, storedState } from '../../support/fuzz-state';
import {
  type ReliabilityService,
  ReliableClient,
  sessionCensus,
  startReliabilityService,
  statusTrail,
  TERMINAL,
} from '../../support/reliability-client';

/** Generous: a busy 2-core CI machine can be several times slower than a quiet one. */
const HEAVY_TEST_TIMEOUT_MS = 300_000;

/**
 * The local runtime is stopped in the middle of several investigations, with keys in every state,
 * incidents and finished sessions stored, and started again on the same tables. Polling must return
 * the persisted state; each interrupted session must end failed with its reason and never run again
 * (not even when its start is retried with the same Idempotency-Key); and nothing else stored may
 * change: every item of every table is fingerprinted before the stop and after the restart, and the
 * only differences allowed are the interrupted sessions' own.
 *
 * investigation-restart.test.ts covers one interrupted session; this covers the runtime's whole
 * stored state around it.
 */
const SLOW = ['restart-a.example.com', 'restart-b.example.com', 'restart-c.example.com'];
const tablePrefix = `sis-t${randomBytes(5).toString('hex')}`;
let service: ReliabilityService | undefined;
let http: ReliableClient;

const start = (adminKey?: string) =>
  startReliabilityService({
    tablePrefix,
    ...(adminKey ? { adminKey } : {}),
    env: { SIS_FAULT_INJECTION: SLOW.map((entity) => `step-run-tool@${entity}=delay:2500`).join(',') },
    incidentQueue: { visibilityTimeoutSeconds: 0.2 },
  });

afterAll(async () => {
  await service?.stop();
});

describe('restart of the local runtime mid-investigation', () => {
  it(
    'fails the interrupted sessions with their reason, reruns nothing and loses nothing else',
    async () => {
      service = await start();
      http = new ReliableClient(() => service!.baseUrl);
      const generous = { rate_per_second: 1000, burst: 1000 };
      const owner = await service.createKey({ name: 'restart owner', rate_limit: generous });
      const key = owner.apiKey;
      const rotating = await service.createKey({
        name: 'rotating',
        scopes: ['incidents:read'],
        rate_limit: generous,
      });
      const doomed = await service.createKey({ name: 'disabled', scopes: ['incidents:read'] });
      const admin = service.adminKey;

      // Stored state of every kind before the stop.
      const rotated = await http.call('POST', `/api/v1/admin/keys/${rotating.keyId}/rotate`, {
        key: admin,
        body: { grace_period_seconds: 3600 },
      });
      expect(rotated.status).toBe(200);
      expect(
        (await http.call('POST', `/api/v1/admin/keys/${doomed.keyId}/disable`, { key: admin })).status,
      ).toBe(200);
      const ingest = await http.call('POST', '/api/v1/incidents/ingest', {
        key,
        body: {
          incidents: Array.from({ length: 4 }, (_, i) => ({
            source: 'custom',
            source_id: `restart-${i}`,
            title: `Kept across restarts ${i}`,
            severity: 'medium',
            status: 'active',
            created_at: '2026-11-04T00:00:00Z',
            entities: [{ type: 'host', value: `restart-host-${i}` }],
          })),
        },
      });
      expect(ingest.status).toBe(202);
      await service.incidentQueue.idle();
      const completed = [];
      for (const entity of ['192.0.2.33', 'j.doe@contoso.example']) {
        const answer = await http.call('POST', '/api/v1/investigations/start', { key, body: { entity } });
        expect(answer.json.status).toBe('completed');
        completed.push(answer.json.session_id as string);
      }
      const canceledStart = await http.call('POST', '/api/v1/investigations/start', {
        key,
        body: { entity: SLOW[2], background: true },
      });
      expect(
        (await http.call('POST', `/api/v1/public/sessions/${canceledStart.json.session_id}/cancel`, { key }))
          .status,
      ).toBe(200);
      await service.stepFunctions.idle();

      // Interrupted: slow investigations, two of them retried later with their Idempotency-Key.
      const interrupted: string[] = [];
      for (const [i, entity] of SLOW.slice(0, 2).entries()) {
        for (const copy of [0, 1]) {
          const answer = await http.call('POST', '/api/v1/investigations/start', {
            key,
            headers: { 'idempotency-key': `restart-${i}-${copy}` },
            body: {
              entity: { type: 'domain', value: entity },
              background: true,
              persona: copy ? 'CISO' : 'SOC Analyst',
            },
          });
          expect(answer.status).toBe(202);
          interrupted.push(answer.json.session_id);
        }
      }
      for (const id of interrupted) {
        for (let i = 0; i < 100; i++) {
          const poll = await http.call('GET', `/api/v1/public/sessions/${id}`, { key });
          if (poll.json.session.status === 'active') break;
          await new Promise((wake) => setTimeout(wake, 50));
        }
      }
      const beforeReports = await Promise.all(
        completed.map((id) => http.call('GET', `/api/v1/sessions/${id}`, { key }).then((a) => a.json)),
      );
      const before = await storedState(service.env);
      const census = await sessionCensus(service.env);
      for (const id of interrupted) expect(census.sessions.get(id)?.status).toBe('active');

      // Requests in flight while the runtime goes down may fail; they must not corrupt anything.
      const inFlight = Array.from({ length: 6 }, () =>
        http.once('GET', '/api/v1/incidents?limit=2', { key }).catch(() => undefined),
      );
      await service.stop();
      await Promise.all(inFlight);
      const downAt = Date.now();
      service = await start(admin);
      const restartMs = Date.now() - downAt;

      // Interrupted sessions: failed with the reason, readable, and not run again.
      const afterRestart = new Map<string, Awaited<ReturnType<ReliableClient['call']>>>();
      for (const id of interrupted) {
        const poll = await http.call('GET', `/api/v1/public/sessions/${id}`, { key });
        expect(poll.status).toBe(200);
        expect(poll.json.session).toMatchObject({
          status: 'failed',
          failure_reason: 'interrupted by a service restart',
        });
        expect(statusTrail(poll)).toEqual(['initialized', 'active', 'failed']);
        afterRestart.set(id, poll);
        const report = await http.call('GET', `/api/v1/sessions/${id}`, { key });
        expect(report.json).toMatchObject({ status: 'failed', report: null });
      }
      for (const [i] of SLOW.slice(0, 2).entries()) {
        const retry = await http.call('POST', `/api/v1/investigations/start`, {
          key,
          headers: { 'idempotency-key': `restart-${i}-0` },
          body: { entity: { type: 'domain', value: SLOW[i] }, background: true, persona: 'SOC Analyst' },
        });
        expect(retry.status).toBe(202);
        expect(retry.json.session_id).toBe(interrupted[i * 2]);
        expect(retry.json.status).toBe('failed');
      }
      await service.stepFunctions.idle();
      await new Promise((wake) => setTimeout(wake, 500));
      for (const id of interrupted) {
        const later = await http.call('GET', `/api/v1/public/sessions/${id}`, { key });
        const first = afterRestart.get(id)!;
        expect(later.json.session.status).toBe('failed');
        expect(later.json.events.length).toBe(first.json.events.length);
        expect(later.json.messages.length).toBe(first.json.messages.length);
        expect(later.json.tool_calls.length).toBe(first.json.tool_calls.length);
      }

      // Nothing else changed: every difference in the tables belongs to an interrupted session.
      const after = await storedState(service.env);
      const changes = stateChanges(before, after);
      const foreign = changes.filter((change) => !interrupted.some((id) => change.includes(id)));
      expect(foreign).toEqual([]);
      expect(changes.length).toBeGreaterThan(0);
      const afterReports = await Promise.all(
        completed.map((id) => http.call('GET', `/api/v1/sessions/${id}`, { key }).then((a) => a.json)),
      );
      expect(afterReports).toEqual(beforeReports);
      const census2 = await sessionCensus(service.env);
      expect(census2.sessions.size).toBe(census.sessions.size);
      expect([...census2.sessions.values()].filter((s) => !TERMINAL.has(s.status))).toEqual([]);

      // Keys keep their state: both secrets in grace work, the disabled key stays refused.
      expect((await http.call('GET', '/api/v1/incidents?limit=1', { key: rotating.apiKey })).status).toBe(
        200,
      );
      expect(
        (await http.call('GET', '/api/v1/incidents?limit=1', { key: rotated.json.api_key })).status,
      ).toBe(200);
      expect((await http.call('GET', '/api/v1/incidents?limit=1', { key: doomed.apiKey })).status).toBe(401);
      const incidents = await http.call('GET', '/api/v1/incidents?limit=100', { key });
      expect(
        (incidents.json.incidents as { source_id: string }[]).filter((i) =>
          i.source_id.startsWith('restart-'),
        ),
      ).toHaveLength(4);

      // And the restarted runtime works.
      const fresh = await http.call('POST', '/api/v1/investigations/start', {
        key,
        body: { entity: '192.0.2.34' },
      });
      expect(fresh.json.status).toBe('completed');
      console.info(
        `[restart] runtime back in ${restartMs} ms; ${interrupted.length} interrupted sessions failed with their reason, 0 rerun; ` +
          `${changes.length} item changes, all of interrupted sessions; ${census.sessions.size} sessions, keys, incidents and reports otherwise identical`,
      );
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
