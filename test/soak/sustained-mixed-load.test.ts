import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectedThrottling } from '../../shared/store/dynamo-client';
import { captureLogs } from '../support/log-capture';
import {
  percentile,
  type ReliabilityService,
  ReliableClient,
  sessionCensus,
  startReliabilityService,
  TERMINAL,
} from '../support/reliability-client';

/**
 * Soak: SIS_SOAK_SECONDS (default 120) of mixed traffic against one local runtime while DynamoDB is
 * throttled on 5% of attempts and an admin keeps rotating and disabling keys: investigations
 * started at a steady rate and polled to the end, incident pushes with duplicates, graph, search
 * and listing reads, all by five client keys. At the end: no 500/502, errors always in the contract
 * shape, every session terminal and none lost, every revoked secret refused, and the figures
 * (latency per route, answers, memory) printed.
 */
const SECONDS = Number(process.env.SIS_SOAK_SECONDS ?? 120);
const CLIENTS = 5;

let service: ReliabilityService;
let http: ReliableClient;

beforeAll(async () => {
  service = await startReliabilityService({
    env: { SIS_DYNAMODB_FAULT_RATE: '0.05' },
    incidentQueue: { visibilityTimeoutSeconds: 0.5, maxReceiveCount: 5 },
  });
  http = new ReliableClient(() => service.baseUrl, { retries: 10, backoffMs: 50 });
});

afterAll(async () => {
  await service?.stop();
});

describe(`${SECONDS} s of sustained mixed load`, () => {
  it('keeps serving: no 5xx but retryable 503, nothing lost, revocations hold', async () => {
    const logs = captureLogs();
    const memoryBefore = process.memoryUsage();
    const throttledBefore = injectedThrottling.throttled;
    const generous = { rate_per_second: 1000, burst: 1000 };
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const key = await service.createKey({ name: `soak ${i}`, rate_limit: generous });
        return { keyId: key.keyId, secret: key.apiKey, sessions: [] as string[], revoked: [] as string[] };
      }),
    );
    const deadline = Date.now() + SECONDS * 1000;
    const latencies = new Map<string, number[]>();
    const timed = async <T extends { status: number }>(label: string, work: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const answer = await work();
      const list = latencies.get(label) ?? [];
      list.push(performance.now() - t0);
      latencies.set(label, list);
      return answer;
    };
    let started = 0;

    const clientLoop = async (c: (typeof clients)[number], index: number) => {
      for (let tick = 0; Date.now() < deadline; tick++) {
        const key = c.secret;
        if (tick % 5 === 0) {
          const answer = await timed('start', () =>
            http.call('POST', '/api/v1/investigations/start', {
              key,
              headers: { 'idempotency-key': `soak-${index}-${tick}` },
              body: { entity: `198.18.${index}.${tick % 250}`, background: true },
            }),
          );
          if (answer.status === 202) {
            c.sessions.push(answer.json.session_id);
            started++;
          }
        }
        const open = c.sessions.at(-1);
        if (open) await timed('poll', () => http.call('GET', `/api/v1/public/sessions/${open}`, { key }));
        await timed('incidents', () =>
          http.call('GET', '/api/v1/incidents?severity=high,critical&limit=20', { key }),
        );
        await timed('graph', () => http.call('GET', `/api/v1/graph/entity/198.18.${index}.1`, { key }));
        await timed('search', () => http.call('GET', `/api/v1/search?q=198.18.${index}.1`, { key }));
        if (tick % 7 === 0) {
          await timed('ingest', () =>
            http.call('POST', '/api/v1/incidents/ingest', {
              key,
              body: {
                incidents: [0, 1].map((n) => ({
                  source: 'custom',
                  source_id: `soak-${index}-${Math.floor(tick / 14) + n}`,
                  title: `Soak incident ${index}`,
                  severity: 'high',
                  status: 'new',
                  created_at: new Date(Date.now() - 60_000).toISOString(),
                  entities: [{ type: 'ip', value: `198.18.${index}.1` }],
                })),
              },
            }),
          );
        }
        await new Promise((wake) => setTimeout(wake, 50));
      }
    };

    const adminLoop = async () => {
      let round = 0;
      while (Date.now() < deadline) {
        await new Promise((wake) => setTimeout(wake, 5_000));
        const c = clients[round % CLIENTS]!;
        const rotated = await timed('rotate', () =>
          http.call('POST', `/api/v1/admin/keys/${c.keyId}/rotate`, {
            key: service.adminKey,
            body: { grace_period_seconds: 0 },
          }),
        );
        if (rotated.status === 200) {
          c.revoked.push(c.secret);
          c.secret = rotated.json.api_key;
        }
        round++;
      }
    };

    await Promise.all([adminLoop(), ...clients.map((c, i) => clientLoop(c, i))]);

    // Every session ends, once the load stops.
    const finals = await Promise.all(
      clients.flatMap((c) => c.sessions.map((id) => http.pollUntilTerminal(c.secret, id, 180_000))),
    );
    await service.stepFunctions.idle();
    await service.incidentQueue.idle();
    const census = await sessionCensus(service.env);
    const openSessions = [...census.sessions.values()].filter((s) => !TERMINAL.has(s.status));
    const outcomes = finals.reduce<Record<string, number>>((acc, f) => {
      acc[f.json.session.status] = (acc[f.json.session.status] ?? 0) + 1;
      return acc;
    }, {});
    const revoked = clients.flatMap((c) => c.revoked);
    const refusals = await Promise.all(
      revoked.map((secret) => http.once('GET', '/api/v1/incidents?limit=1', { key: secret })),
    );
    logs.stop();
    const memoryAfter = process.memoryUsage();

    const statuses = http.statusCounts();
    const table = Object.fromEntries(
      [...latencies].map(([label, values]) => [
        label,
        {
          n: values.length,
          p50: percentile(values, 0.5).toFixed(1),
          p95: percentile(values, 0.95).toFixed(1),
          p99: percentile(values, 0.99).toFixed(1),
        },
      ]),
    );
    console.info(`[soak] ${SECONDS} s, ${http.log.length} requests, answers ${JSON.stringify(statuses)}`);
    console.table(table);
    console.info(
      `[soak] sessions started ${started}, terminal ${finals.length} ${JSON.stringify(outcomes)}, lost ${started - finals.length}, open in table ${openSessions.length}; ` +
        `${injectedThrottling.throttled - throttledBefore} throttles injected; ${revoked.length} rotated-away secrets all refused: ${refusals.every((r) => r.status === 401)}; ` +
        `heap ${(memoryBefore.heapUsed / 2 ** 20).toFixed(0)} → ${(memoryAfter.heapUsed / 2 ** 20).toFixed(0)} MiB, rss ${(memoryBefore.rss / 2 ** 20).toFixed(0)} → ${(memoryAfter.rss / 2 ** 20).toFixed(0)} MiB; ` +
        `${logs.records().filter((r) => r.level === 'ERROR').length} ERROR log records`,
    );

    expect(statuses[500] ?? 0).toBe(0);
    expect(statuses[502] ?? 0).toBe(0);
    expect(http.malformedErrors()).toEqual([]);
    expect(finals).toHaveLength(started);
    expect(openSessions).toEqual([]);
    expect(outcomes.completed).toBe(started);
    expect(refusals.map((r) => r.status)).toEqual(refusals.map(() => 401));
    // A generous bound: a leak of a few KiB per request over the run would cross it.
    expect(memoryAfter.heapUsed - memoryBefore.heapUsed).toBeLessThan(512 * 2 ** 20);
  });
});
