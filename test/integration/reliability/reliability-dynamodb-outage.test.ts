import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../local/dynamodb-local';
import { lifecycleContext } from '../../../shared/services/sessions/lifecycle-context';
import {
  limitsFromConfig,
  sweepStaleSessions,
} from '../../../shared/services/workflow/stale-session-sweeper';
import { isContractError } from '../../support/fuzz-http';
import { captureLogs } from '../../support/log-capture';
import {
  type CallRecord,
  type ReliabilityService,
  ReliableClient,
  startReliabilityService,
  TERMINAL,
} from '../../support/reliability-client';

/** Generous: a busy 2-core CI machine can be several times slower than a quiet one. */
const HEAVY_TEST_TIMEOUT_MS = 300_000;

/**
 * DynamoDB itself goes away under load: this suite runs its own DynamoDB Local (persisting to a
 * temporary folder) under its own local runtime, kills it while clients keep calling, and starts it
 * again on the same port and data. While it is down every protected request must fail cleanly (503
 * in the contract shape: never a 500, and never a 401 that would tell a client its valid key is
 * bad); once it is back the service must recover by itself and every stored thing must still be
 * there.
 */
const OUTAGE_MS = Number(process.env.SIS_RELIABILITY_OUTAGE_MS ?? 3_000);
const RECOVERY_DEADLINE_MS = 10_000;
/** An investigation whose tools are still running when DynamoDB goes away. */
const IN_FLIGHT = 'in-flight.example.com';

let dataDir: string;
let port: number;
let dynamo: DynamoDbLocal | undefined;
let service: ReliabilityService;
let http: ReliableClient;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, exclusive: true }, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sis-outage-'));
  port = await freePort();
  dynamo = await startDynamoDbLocal({ port, dataDir });
  service = await startReliabilityService({
    dynamodb: { endpoint: dynamo.endpoint },
    env: { SIS_FAULT_INJECTION: `step-run-tool@${IN_FLIGHT}=delay:1500` },
  });
  http = new ReliableClient(() => service.baseUrl);
});

afterAll(async () => {
  await service?.stop();
  await dynamo?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('DynamoDB Local killed and restarted under load', () => {
  it(
    'answers 503 in the contract shape while it is down, then recovers with nothing lost',
    async () => {
      const key = (
        await service.createKey({ name: 'outage', rate_limit: { rate_per_second: 1000, burst: 1000 } })
      ).apiKey;
      const ingest = await http.call('POST', '/api/v1/incidents/ingest', {
        key,
        body: {
          incidents: Array.from({ length: 5 }, (_, i) => ({
            source: 'custom',
            source_id: `outage-${i}`,
            title: `Before the outage ${i}`,
            severity: 'high',
            status: 'new',
            created_at: '2026-11-03T00:00:00Z',
            entities: [{ type: 'ip', value: '192.0.2.77' }],
          })),
        },
      });
      expect(ingest.status).toBe(202);
      await service.incidentQueue.idle();
      const done = await http.call('POST', '/api/v1/investigations/start', {
        key,
        body: { entity: '192.0.2.77' },
      });
      expect(done.json.status).toBe('completed');
      const sessionId = done.json.session_id as string;
      await service.stepFunctions.idle();

      const phases = { killAt: 0, killedAt: 0, restartAt: 0, restartedAt: 0 };
      const records: (CallRecord & { target: string; code?: string })[] = [];
      const targets = [
        ['GET', '/api/v1/incidents?limit=5'],
        ['GET', `/api/v1/public/sessions/${sessionId}`],
        ['GET', `/api/v1/sessions/${sessionId}`],
        ['GET', '/api/v1/graph/entity/192.0.2.77'],
        ['GET', '/api/v1/search?q=192.0.2.77'],
        ['GET', '/health'],
      ] as const;
      let stop = false;
      const loop = async (offset: number) => {
        for (let i = offset; !stop; i++) {
          const [method, path] = targets[i % targets.length]!;
          const sentAt = Date.now();
          const answer = await http.once(method, path, { key }).catch((error: Error) => ({
            status: -1,
            json: undefined,
            text: error.message,
          }));
          records.push({
            method,
            path,
            target: path.split('?')[0]!.replace(sessionId, '{id}'),
            status: answer.status,
            sentAt,
            doneAt: Date.now(),
            ...(answer.status >= 400
              ? { contractError: isContractError(answer.json), code: answer.json?.error?.code }
              : {}),
          });
          await new Promise((wake) => setTimeout(wake, 20));
        }
      };
      // The runtime logs every failed call at ERROR; kept out of the test output, counted instead.
      const logs = captureLogs();
      const loops = [0, 1, 2, 3].map((offset) => loop(offset));

      await new Promise((wake) => setTimeout(wake, 1_000));
      const inFlight = await http.call('POST', '/api/v1/investigations/start', {
        key,
        body: { entity: IN_FLIGHT, background: true },
      });
      expect(inFlight.status).toBe(202);
      await new Promise((wake) => setTimeout(wake, 500));
      phases.killAt = Date.now();
      await dynamo!.stop();
      phases.killedAt = Date.now();
      await new Promise((wake) => setTimeout(wake, OUTAGE_MS));
      phases.restartAt = Date.now();
      dynamo = await startDynamoDbLocal({ port, dataDir });
      phases.restartedAt = Date.now();
      // Keep the load on until every target has answered 200 again for a while.
      const recoveryDeadline = Date.now() + RECOVERY_DEADLINE_MS;
      let recoveredAt = 0;
      while (Date.now() < recoveryDeadline) {
        await new Promise((wake) => setTimeout(wake, 250));
        const recent = records.filter((r) => r.sentAt > phases.restartedAt);
        const firstFullRound = recent.findIndex(
          (_r, i) =>
            recent.slice(i, i + 12).length === 12 && recent.slice(i, i + 12).every((x) => x.status === 200),
        );
        if (firstFullRound >= 0) {
          recoveredAt = recent[firstFullRound]!.sentAt;
          if (Date.now() - recoveredAt > 1_000) break;
        }
      }
      stop = true;
      await Promise.all(loops);
      logs.stop();
      const errorLogs = logs.records().filter((r) => r.level === 'ERROR').length;

      const healthy = records.filter((r) => r.doneAt < phases.killAt);
      const down = records.filter((r) => r.sentAt > phases.killedAt && r.doneAt < phases.restartAt);
      const after = records.filter((r) => recoveredAt && r.sentAt >= recoveredAt);
      const byStatus = (rs: typeof records) =>
        rs.reduce<Record<string, number>>((acc, r) => {
          const label = `${r.status}${r.code ? ` ${r.code}` : ''}`;
          acc[label] = (acc[label] ?? 0) + 1;
          return acc;
        }, {});

      expect(healthy.length).toBeGreaterThan(10);
      expect(healthy.map((r) => r.status)).toEqual(healthy.map(() => 200));
      expect(down.length, 'requests were made during the outage').toBeGreaterThan(5);
      for (const r of down) {
        if (r.target === '/health') expect(r.status, 'health reads no data').toBe(200);
        else {
          expect(r.status, `${r.target} during the outage`).toBe(503);
          expect(r.contractError, r.target).toBe(true);
          expect(r.code).toBe('service_unavailable');
        }
      }
      expect(recoveredAt, 'the service recovered without a restart of its own').toBeGreaterThan(0);
      expect(after.map((r) => r.status)).toEqual(after.map(() => 200));
      // No answer at any time was a 5xx other than 503, or a refusal of the valid key.
      expect(records.filter((r) => [401, 403, 500, 502, -1].includes(r.status))).toEqual([]);

      // Everything stored before the outage is still there.
      const incidents = await http.call('GET', '/api/v1/incidents?limit=100', { key });
      expect(
        (incidents.json.incidents as { source_id: string }[]).filter((i) =>
          i.source_id.startsWith('outage-'),
        ),
      ).toHaveLength(5);
      const report = await http.call('GET', `/api/v1/sessions/${sessionId}`, { key });
      expect(report.json).toMatchObject({ status: 'completed', report: expect.any(Object) });
      await service.stepFunctions.idle();
      const interrupted = await http.call('GET', `/api/v1/public/sessions/${inFlight.json.session_id}`, {
        key,
      });
      // Its steps retry through a short outage. If the outage outlasts them (and the status-change
      // write-back), the run ends but the session stays active: then the stale-session sweeper must
      // end it once the session passes its limit (workflow timeout + margin). The sweeper runs here
      // with its clock moved past that limit (the investigation context's clock, injected).
      let inFlightOutcome = `${interrupted.json.session.status} right after recovery`;
      if (!TERMINAL.has(interrupted.json.session.status)) {
        const ctx = lifecycleContext();
        const limits = limitsFromConfig(ctx);
        const later = Date.parse(interrupted.json.session.created_at) + (limits.runLimitSeconds + 5) * 1000;
        const swept = await sweepStaleSessions({ ...ctx, now: () => new Date(later) });
        expect(swept.ended.map((e) => e.session_id)).toContain(inFlight.json.session_id);
        const afterSweep = await http.call('GET', `/api/v1/public/sessions/${inFlight.json.session_id}`, {
          key,
        });
        expect(afterSweep.json.session.status).toBe('failed');
        inFlightOutcome = `active after recovery, ended ${afterSweep.json.session.status} by the sweeper at its ${limits.runLimitSeconds} s limit`;
      }
      const fresh = await http.call('POST', '/api/v1/investigations/start', {
        key,
        body: { entity: '192.0.2.78' },
      });
      expect(fresh.json.status).toBe('completed');

      console.info(
        `[outage] DynamoDB Local down ${phases.restartAt - phases.killedAt} ms (restart took ${phases.restartedAt - phases.restartAt} ms), recovered ${recoveredAt - phases.restartedAt} ms after it answered; ` +
          `${errorLogs} ERROR log records; in-flight investigation: ${inFlightOutcome}; ` +
          `healthy ${JSON.stringify(byStatus(healthy))}, down ${JSON.stringify(byStatus(down))}, after ${JSON.stringify(byStatus(after))}`,
      );
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
