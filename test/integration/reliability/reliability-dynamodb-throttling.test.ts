import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../../shared/config';
import { injectedThrottling } from '../../../shared/store/dynamo-client';
import { isContractError, withConcurrency } from '../../support/fuzz-http';
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
 * DynamoDB throttling on a fraction of ALL calls of the runtime (handlers, authorizer, workflow
 * steps, queue consumer), injected through the documented test seam SIS_DYNAMODB_FAULT_RATE: each
 * attempt the SDK makes fails with ProvisionedThroughputExceededException before reaching DynamoDB
 * Local with that probability. The SDK's retry configuration (4 attempts with backoff) and the
 * workflow's step retries must absorb it: every accepted investigation completes, every ingested
 * incident is stored once, every created key works, and anything that still surfaces to a client
 * is a 503 in the contract shape, never a 500.
 */
const RATE = Number(process.env.SIS_RELIABILITY_THROTTLE_RATE ?? 0.15);
const INVESTIGATIONS = Number(process.env.SIS_RELIABILITY_THROTTLED_SESSIONS ?? 12);
const INCIDENTS = 30;

let service: ReliabilityService;
let http: ReliableClient;

beforeAll(async () => {
  for (let attempt = 1; !service; attempt++) {
    try {
      service = await startReliabilityService({
        env: { SIS_DYNAMODB_FAULT_RATE: String(RATE) },
        incidentQueue: { visibilityTimeoutSeconds: 0.3, maxReceiveCount: 5 },
      });
    } catch (error) {
      // Start-up reads are throttled as well; a start-up that loses four draws in a row is retried.
      if (attempt >= 3) throw error;
    }
  }
  http = new ReliableClient(() => service.baseUrl, { retries: 10, backoffMs: 50 });
});

afterAll(async () => {
  await service?.stop();
});

describe(`DynamoDB throttling on ${RATE * 100}% of request attempts`, () => {
  it(
    'loses no investigation, incident or key, and surfaces at most retryable 503s',
    async () => {
      const before = { ...injectedThrottling };
      const admin = service.adminKey;
      // Keys over HTTP.
      const keys: { keyId: string; apiKey: string }[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await http.call('POST', '/api/v1/admin/keys', {
          key: admin,
          body: {
            name: `throttled ${i}`,
            scopes: [
              'investigations:read',
              'investigations:write',
              'incidents:read',
              'incidents:write',
              'graph:read',
            ],
            rate_limit: { rate_per_second: 1000, burst: 1000 },
          },
        });
        expect(created.status, created.text).toBe(201);
        keys.push({ keyId: created.json.key_id, apiKey: created.json.api_key });
      }

      // Investigations, retried with their Idempotency-Key on 503.
      const accepted = await Promise.all(
        Array.from({ length: INVESTIGATIONS }, async (_, i) => {
          const key = keys[i % keys.length]!.apiKey;
          const answer = await http.call('POST', '/api/v1/investigations/start', {
            key,
            headers: { 'idempotency-key': `throttled-${i}` },
            body: { entity: `192.0.2.${i + 10}`, background: true },
          });
          expect(answer.status, answer.text).toBe(202);
          return { key, id: answer.json.session_id as string };
        }),
      );
      expect(new Set(accepted.map((a) => a.id)).size).toBe(INVESTIGATIONS);

      // Incidents, each sent twice (ingest is idempotent per source + source_id).
      const incidents = Array.from({ length: INCIDENTS }, (_, i) => ({
        source: 'custom',
        source_id: `throttled-${i}`,
        title: `Throttled incident ${i}`,
        severity: 'critical',
        status: 'new',
        created_at: '2026-11-02T00:00:00Z',
        entities: [{ type: 'ip', value: '192.0.2.250' }],
      }));
      for (const batch of [incidents.slice(0, 15), incidents.slice(15), incidents]) {
        const answer = await http.call('POST', '/api/v1/incidents/ingest', {
          key: keys[0]!.apiKey,
          body: { incidents: batch },
        });
        expect(answer.status, answer.text).toBe(202);
      }

      const finals = await Promise.all(
        accepted.map(({ key, id }) => http.pollUntilTerminal(key, id, 90_000)),
      );
      await service.stepFunctions.idle();
      await service.incidentQueue.idle();

      for (const final of finals) {
        expect(final.json.session.status, final.json.session.failure_reason).toBe('completed');
        expect(statusTrail(final)).toEqual(['initialized', 'active', 'completed']);
      }
      const census = await sessionCensus(service.env);
      const open = [...census.sessions.values()].filter((s) => !TERMINAL.has(s.status));
      expect(open).toEqual([]);
      // Any extra session is one whose run could not be launched and was ended failed at once.
      const extra = [...census.sessions.entries()].filter(([id]) => !accepted.some((a) => a.id === id));
      for (const [, session] of extra) expect(session.status).toBe('failed');

      const listed = await http.call('GET', '/api/v1/incidents?severity=critical&limit=100', {
        key: keys[1]!.apiKey,
      });
      expect(listed.status).toBe(200);
      const stored = (listed.json.incidents as { source_id: string }[]).filter((i) =>
        i.source_id.startsWith('throttled-'),
      );
      expect(stored).toHaveLength(INCIDENTS);
      expect(service.incidentQueue.dlq()).toEqual([]);

      const keyList = await http.call('GET', '/api/v1/admin/keys?search=throttled', { key: admin });
      expect(keyList.status).toBe(200);
      expect(keyList.json.keys).toHaveLength(keys.length);
      for (const key of keys) {
        expect((await http.call('GET', '/api/v1/incidents?limit=1', { key: key.apiKey })).status).toBe(200);
      }

      const statuses = http.statusCounts();
      expect(statuses[500] ?? 0).toBe(0);
      expect(statuses[502] ?? 0).toBe(0);
      expect(http.malformedErrors()).toEqual([]);
      const surfaced = http.log.filter((r) => r.status === 503).length;
      const throttled = injectedThrottling.throttled - before.throttled;
      const attempts = injectedThrottling.attempts - before.attempts;
      expect(throttled).toBeGreaterThan(20);
      console.info(
        `[throttling] rate ${RATE}: ${throttled} of ${attempts} DynamoDB attempts throttled (injected); survived: ${INVESTIGATIONS}/${INVESTIGATIONS} investigations completed, ${stored.length}/${INCIDENTS} incidents stored once, ${keys.length}/${keys.length} keys working; ${extra.length} launch failures; client saw ${surfaced} retryable 503s and 0 5xx otherwise; answers ${JSON.stringify(statuses)}`,
      );
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it('answers a call whose retries are exhausted with 503 in the contract shape, never 500', async () => {
    // A simulated cold start with a harsher rate: at 50% a call loses all four attempts 1 time in 16.
    const key = (
      await service.createKey({ name: 'harsh', rate_limit: { rate_per_second: 1000, burst: 1000 } })
    ).apiKey;
    process.env.SIS_DYNAMODB_FAULT_RATE = '0.5';
    resetConfigForTests();
    try {
      const answers = await withConcurrency(
        20,
        Array.from(
          { length: 80 },
          () => () => http.once('GET', '/api/v1/incidents?severity=critical&limit=5', { key }),
        ),
      );
      const statuses = answers.reduce<Record<number, number>>((acc, a) => {
        acc[a.status] = (acc[a.status] ?? 0) + 1;
        return acc;
      }, {});
      expect(
        Object.keys(statuses)
          .map(Number)
          .filter((s) => s >= 500 && s !== 503),
      ).toEqual([]);
      expect(statuses[503] ?? 0).toBeGreaterThan(0);
      for (const answer of answers.filter((a) => a.status === 503)) {
        expect(isContractError(answer.json)).toBe(true);
        expect(answer.json.error.code).toBe('service_unavailable');
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
      }
      console.info(`[throttling] rate 0.5: 80 reads answered ${JSON.stringify(statuses)}`);
    } finally {
      process.env.SIS_DYNAMODB_FAULT_RATE = String(RATE);
      resetConfigForTests();
    }
  });
});
