import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AWS_PRICES } from '../../scripts/aws-prices';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import { publishWebhookEvent } from '../../shared/services/webhooks/webhook-events';
import { type CostLine, priceOperation } from '../lib/cost-model';
import { startDynamoMeter } from '../lib/dynamo-meter';
import { startBenchService } from '../lib/harness';
import { type Distribution, distribution, type Figure, figure } from '../lib/stats';
import type { ScenarioContext } from './context';
import { measure } from './cost';

/**
 * Issue #38's targets, on one local runtime whose DynamoDB traffic passes through the metering hop:
 * a batch of 100 entities answered (POST /api/v1/investigations/batch, round by round), every one
 * of its sessions' `investigation.completed` (or `.failed`) delivered to a receiver on 127.0.0.1 (the lag from the
 * session's `completed_at` to the receiver's arrival), and what one delivery costs, priced like the
 * cost scenario's lines (DynamoDB units metered, the delivery function's invocations and durations
 * from the handler probe). The first attempt is an asynchronous invoke of the delivery function
 * (billed as that invocation, already in the line); no schedule, queue or poller is involved, so the
 * line is the whole cost. Each retry adds one EventBridge Scheduler invocation (listed, not added:
 * the target's case is a receiver answering 2xx at once).
 */
export const BATCH_SIZE = 100;
export const BATCH_ANSWER_TARGET_MS = 3000;
export const DELIVERY_P50_TARGET_MS = 2000;
export const DELIVERY_COST_TARGET_USD = 5;
/** What each retry adds beyond its invocation: one one-shot schedule run, per million retries. */
const RETRY_SCHEDULE_PER_MILLION_USD = AWS_PRICES.schedulerPerMillionInvocations;

export interface SoarResult {
  batchSize: number;
  batchAnswerMs: Figure;
  deliveries: number;
  /** Sessions the batches started: each ends completed or failed, and both events are subscribed. */
  expectedDeliveries: number;
  /** The same lag for the batches' sessions, all ending together (not the target's case). */
  burstLagMs: Distribution;
  burstDeliveries: number;
  burstExpectedDeliveries: number;
  deliveryLagMs: Distribution;
  deliveryCost: CostLine;
  /** deliveryCost's total per million deliveries (the first attempt needs no schedule). */
  deliveryPerMillionUsd: number;
}

interface Arrival {
  at: number;
  sessionId?: string;
  deliveryId: string;
}

async function startReceiver(): Promise<{ server: Server; url: string; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { session_id?: string } };
      arrivals.push({ at, sessionId: body.data?.session_id, deliveryId: String(req.headers['webhook-id']) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals };
}

async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`soar: timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 10));
  }
}

/** Issue #38: batches and webhook deliveries (BenchResults.soar). */
export async function runSoar(ctx: ScenarioContext): Promise<SoarResult> {
  ctx.say('SOAR: a batch of 100, webhook deliveries to a receiver on 127.0.0.1, their cost');
  const meter = await startDynamoMeter(ctx.dynamodbEndpoint);
  const receiver = await startReceiver();
  const bench = await startBenchService({
    dynamodbEndpoint: meter.endpoint,
    name: 'soar',
    env: { SIS_WEBHOOK_ALLOW_LOOPBACK: 'true' },
  });
  try {
    await bench.http.expect(201, 'POST', '/api/v1/admin/webhooks', {
      key: bench.adminKey,
      body: {
        url: receiver.url,
        events: ['investigation.completed', 'investigation.failed'],
        description: 'bench receiver',
      },
    });
    const rounds = ctx.quick ? 1 : 3;
    const answers: number[] = [];
    const lags: number[] = [];
    let expected = 0;
    let burstExpected = 0;
    const burstLags: number[] = [];
    /** From each session's `completed_at` to its delivery's arrival (sessions not delivered left out). */
    const lagsOf = async (sessionIds: readonly string[]) => {
      const found: number[] = [];
      for (const sessionId of sessionIds) {
        const polled = await bench.http.expect(200, 'GET', `/api/v1/sessions/${sessionId}`, {
          key: bench.apiKey,
        });
        const endedAt = Date.parse((polled.body as { completed_at: string }).completed_at);
        const arrival = receiver.arrivals.find((a) => a.sessionId === sessionId);
        if (arrival) found.push(arrival.at - endedAt);
      }
      return found;
    };
    for (let round = 0; round < rounds; round++) {
      ctx.say(`  batch of ${BATCH_SIZE} round ${round + 1}/${rounds}`);
      const entities = Array.from({ length: BATCH_SIZE }, (_, i) => ({
        type: 'domain',
        value: `host-${round}-${i}.soar-bench.example.com`,
      }));
      const started = performance.now();
      const answer = await bench.http.expect(202, 'POST', '/api/v1/investigations/batch', {
        key: bench.apiKey,
        body: { entities },
      });
      answers.push(performance.now() - started);
      const sessions = (answer.body as { sessions: { session_id?: string }[] }).sessions
        .map((s) => s.session_id)
        .filter((id): id is string => Boolean(id));
      await bench.service.stepFunctions.idle();
      const wanted = new Set(sessions);
      burstExpected += wanted.size;
      // A delivery that never comes is reported (deliveries of expected), not waited for forever.
      await until(
        () => receiver.arrivals.filter((a) => a.sessionId && wanted.has(a.sessionId)).length >= wanted.size,
        60_000,
        `${wanted.size} deliveries`,
      ).catch((error: Error) => ctx.say(`  ${error.message}`));
      burstLags.push(...(await lagsOf(sessions)));
    }
    // The target's case: one session ending on a quiet runtime, one after another.
    const singles = ctx.quick ? 5 : 15;
    ctx.say(`  ${singles} investigations one by one`);
    for (let i = 0; i < singles; i++) {
      const started = await bench.http.expect(202, 'POST', '/api/v1/investigations/start', {
        key: bench.apiKey,
        body: { entity: { type: 'domain', value: `single-${i}.soar-bench.example.com` }, background: true },
      });
      const sessionId = (started.body as { session_id: string }).session_id;
      expected++;
      await bench.service.stepFunctions.idle();
      await until(() => receiver.arrivals.some((a) => a.sessionId === sessionId), 30_000, 'a delivery').catch(
        (error: Error) => ctx.say(`  ${error.message}`),
      );
      lags.push(...(await lagsOf([sessionId])));
    }

    ctx.say('  metering one webhook delivery');
    const reps = ctx.quick ? 5 : 20;
    const use = await measure(meter, bench.tablePrefix, 'webhook-delivery', reps, async (rep) => {
      const before = receiver.arrivals.length;
      const sessionId = `s_bench_delivery_${rep}_${Date.now()}`;
      await publishWebhookEvent(webhookContext(), {
        type: 'investigation.completed',
        data: {
          session_id: sessionId,
          status: 'completed',
          verdict: 'benign',
          risk_score: 0,
          session_url: `${bench.service.baseUrl}/sessions/${sessionId}`,
          entity: { type: 'domain', value: `metered-${rep}.soar-bench.example.com` },
        },
      });
      await until(() => receiver.arrivals.length > before, 30_000, 'the metered delivery');
      // The delivery's outcome is recorded after the answer: wait for it, so its write is metered.
      const webhooks = await webhookContext().webhooks.list();
      for (const webhook of webhooks) {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const [latest] = await webhookContext().deliveries.list(webhook.webhook_id, 1);
          if (latest?.status === 'delivered' || Date.now() > deadline) break;
          await new Promise((wake) => setTimeout(wake, 10));
        }
      }
      return { httpRequests: 0, responseBytes: 0, transferBytes: 0 };
    });
    const deliveryCost = priceOperation({ ...use, title: 'One webhook delivery (answered 2xx at once)' });
    return {
      batchSize: BATCH_SIZE,
      batchAnswerMs: figure(answers),
      deliveries: lags.length,
      expectedDeliveries: expected,
      burstLagMs: distribution(burstLags),
      burstDeliveries: burstLags.length,
      burstExpectedDeliveries: burstExpected,
      deliveryLagMs: distribution(lags),
      deliveryCost,
      deliveryPerMillionUsd: deliveryCost.perMillion.total,
    };
  } finally {
    await bench.stop();
    await meter.stop();
    receiver.server.closeAllConnections();
    await new Promise((done) => receiver.server.close(done));
  }
}

/** The bench targets of this scenario, as evaluateTargets lists them. */
export function soarTargets(result: SoarResult) {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  return [
    {
      id: 'batch-answer',
      description: `A batch of ${result.batchSize} entities answered ≤ ${BATCH_ANSWER_TARGET_MS / 1000} s (local run)`,
      target: `≤ ${ms(BATCH_ANSWER_TARGET_MS)}`,
      measured: `${ms(result.batchAnswerMs.median)} (median of ${result.batchAnswerMs.rounds}; ${ms(result.batchAnswerMs.min)}–${ms(result.batchAnswerMs.max)})`,
      met: result.batchAnswerMs.median <= BATCH_ANSWER_TARGET_MS,
    },
    {
      id: 'webhook-delivery-p50',
      description: `Webhook delivery p50 ≤ ${DELIVERY_P50_TARGET_MS / 1000} s after the session ends (local, a receiver on 127.0.0.1, sessions one by one)`,
      target: `≤ ${ms(DELIVERY_P50_TARGET_MS)}`,
      measured: `p50 ${ms(result.deliveryLagMs.p50)}, p90 ${ms(result.deliveryLagMs.p90)} over ${result.deliveries} of ${result.expectedDeliveries} deliveries; the batches' ${result.burstExpectedDeliveries} sessions ending together: p50 ${ms(result.burstLagMs.p50)}, ${result.burstDeliveries} delivered`,
      met:
        result.deliveries === result.expectedDeliveries &&
        result.deliveries > 0 &&
        result.deliveryLagMs.p50 <= DELIVERY_P50_TARGET_MS,
    },
    {
      id: 'webhook-delivery-cost',
      description: `Per 1M webhook deliveries ≤ $${DELIVERY_COST_TARGET_USD} (metered like the cost lines; the first attempt is an asynchronous invoke, no schedule)`,
      target: `≤ $${DELIVERY_COST_TARGET_USD}`,
      measured: `$${result.deliveryPerMillionUsd.toFixed(2)} (Lambda $${(result.deliveryCost.perMillion.lambdaRequests + result.deliveryCost.perMillion.lambdaDuration).toFixed(2)}, DynamoDB $${result.deliveryCost.perMillion.dynamodb.toFixed(2)}, logs $${result.deliveryCost.perMillion.logs.toFixed(2)}; each retry adds a schedule, $${RETRY_SCHEDULE_PER_MILLION_USD.toFixed(2)}/M)`,
      met: result.deliveryPerMillionUsd <= DELIVERY_COST_TARGET_USD,
    },
  ];
}
