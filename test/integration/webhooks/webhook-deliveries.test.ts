import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaleSessionLimits } from '../../../shared/domain/investigation/stale-sessions';
import { lifecycleContext } from '../../../shared/services/sessions/lifecycle-context';
import { OUTBOX_REDISPATCH_SECONDS } from '../../../shared/services/webhooks/webhook-events';
import { sweepStaleSessions } from '../../../shared/services/workflow/stale-session-sweeper';
import { signInToConsole } from '../../support/console-sign-in';
import { errorShape, startTestService, type TestService } from '../../support/local-service';
import { captureLogs } from '../../support/log-capture';

/**
 * Webhooks over the whole local runtime (gateway, authorizer, real handlers, the real ASL, the
 * local Lambda Invoke and Scheduler servers running the real delivery function): a receiver on 127.0.0.1
 * verifies every delivery with standardwebhooks' own Webhook.verify. Each case subscribes with
 * `key_id` of a key of its own, so only its investigations reach its receiver path.
 */
type Behaviour = (attempt: number) => { status: number; headers?: Record<string, string> } | 'hang';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

const behaviours = new Map<string, Behaviour>();
const received: Received[] = [];
let receiver: Server;
let receiverBase: string;
let service: TestService;
const ADMIN_PASSWORD = 'webhook-admin-test-password';
const delivery: { steps?: number; mode?: 'concurrent' | 'sequential' } = {};
const CANCELED = '198.51.100.29';
const SWEPT = '198.51.100.30';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const attempt = received.filter((r) => r.path === path).length;
      const fallback: Behaviour = () => ({ status: 204 });
      const answer = (behaviours.get(path) ?? fallback)(attempt);
      if (answer === 'hang') return; // never answers: the delivery's time-out ends it
      res.writeHead(answer.status, answer.headers);
      res.end();
    });
  });
  await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  service = await startTestService({
    env: {
      SIS_WEBHOOK_ALLOW_LOOPBACK: 'true',
      SIS_WEBHOOK_RETRY_SCHEDULE: '1,1',
      SIS_WEBHOOK_TIMEOUT_SECONDS: '1',
      SIS_CONSOLE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      // The first outbox write of this entity's event fails, as a DynamoDB hiccup would; the first
      // send of the cancel's and the sweep's events is lost (their runs are slowed, then abandoned).
      SIS_FAULT_INJECTION: [
        'webhook-outbox@198.51.100.28=throw-once',
        `webhook-send@${CANCELED}=throw-once`,
        `step-run-tool@${CANCELED}=delay:1500`,
        `webhook-send@${SWEPT}=throw-once`,
        `step-run-tool@${SWEPT}=delay:1500`,
      ].join(','),
    },
    staleSessionSweep: false,
    stepFunctions: { atLeastOnce: delivery },
  });
});

afterAll(async () => {
  await service?.stop();
  receiver?.closeAllConnections();
  await new Promise((done) => receiver?.close(done));
});

async function subscribe(path: string, events = ['investigation.completed']) {
  const { keyId, apiKey } = await service.createKey({ name: `client ${path}` });
  const created = await service.call('POST', '/api/v1/admin/webhooks', {
    key: service.adminKey,
    body: { url: `${receiverBase}${path}`, events, description: `receiver ${path}`, key_id: keyId },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { webhookId: created.body.webhook_id as string, secret: created.body.secret as string, apiKey };
}

async function investigate(apiKey: string, value: string): Promise<{ sessionId: string; endedAt: number }> {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key: apiKey,
    body: { entity: value, background: true },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await service.stepFunctions.idle();
  const polled = await service.call('GET', `/api/v1/sessions/${started.body.session_id}`, { key: apiKey });
  expect(polled.body.status).toBe('completed');
  return { sessionId: started.body.session_id, endedAt: Date.parse(polled.body.completed_at) };
}

async function until<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((wake) => setTimeout(wake, 25));
  }
}

const at = (path: string) => received.filter((r) => r.path === path);
const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: any };

async function deliveriesOf(webhookId: string) {
  const answer = await service.call('GET', `/api/v1/admin/webhooks/${webhookId}/deliveries`, {
    key: service.adminKey,
  });
  expect(answer.status).toBe(200);
  return answer.body.deliveries as {
    delivery_id: string;
    status: string;
    attempts: number;
    last_status_code?: number;
  }[];
}

/** The admin audit entries about one webhook (the console's audit list), oldest first. */
async function auditOf(webhookId: string) {
  const { idToken } = await signInToConsole(service.baseUrl, { username: 'admin', password: ADMIN_PASSWORD });
  const response = await fetch(`${service.baseUrl}/api/v1/console/admin/audit`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const entries = (JSON.parse(text) as { entries: Record<string, unknown>[] }).entries;
  return { text, entries: entries.filter((e) => e.key_id === webhookId).reverse() };
}

/** Waits until the webhook's only delivery has the given status. */
async function settled(webhookId: string, status: string) {
  const deadline = Date.now() + 10_000;
  while ((await deliveriesOf(webhookId))[0]?.status !== status) {
    if (Date.now() > deadline) throw new Error(`delivery never became ${status}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

describe('webhook deliveries', () => {
  it('signs the completed event so the reference verifier accepts it, once, soon after the session ends', async () => {
    const { secret, apiKey, webhookId } = await subscribe('/signed');
    expect(secret).toMatch(/^whsec_/);
    const { sessionId, endedAt } = await investigate(apiKey, '198.51.100.20');
    const [first] = await until(() => (at('/signed').length ? at('/signed') : undefined));
    const event = verify(secret, first!);
    expect(event.type).toBe('investigation.completed');
    expect(event.data).toMatchObject({ session_id: sessionId, status: 'completed', entity: { type: 'ip' } });
    expect(event.data.session_url).toContain(sessionId);
    expect(typeof event.data.risk_score).toBe('number');
    // How soon after the end it arrives is measured by `npm run bench` (webhook-delivery), not here.
    expect(first!.at).toBeGreaterThanOrEqual(endedAt);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        first!.body,
        first!.headers as Record<string, string>,
      ),
    ).toThrow();
    const listed = await service.call('GET', '/api/v1/admin/webhooks', { key: service.adminKey });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(at('/signed')).toHaveLength(1);
    expect((await deliveriesOf(webhookId))[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
    });
  });

  it('refuses unsafe URLs with 400 and stores nothing; a second webhook with the same URL and events is a 409', async () => {
    const before = (await service.call('GET', '/api/v1/admin/webhooks', { key: service.adminKey })).body
      .webhooks.length;
    for (const url of [
      'http://soar.example.com/hook',
      'https://10.0.0.7/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/hook',
      'https://224.0.0.1/hook',
      'https://[::ffff:192.168.1.1]/hook',
      'https://0.0.0.0/hook',
      'ftp://198.51.100.1/hook',
    ]) {
      const refused = await service.call('POST', '/api/v1/admin/webhooks', {
        key: service.adminKey,
        body: { url, events: ['investigation.completed'], description: 'unsafe' },
      });
      expect(refused.status, url).toBe(400);
      expect(refused.body).toMatchObject(errorShape('validation_error'));
    }
    const unknownEvent = await service.call('POST', '/api/v1/admin/webhooks', {
      key: service.adminKey,
      body: { url: `${receiverBase}/x`, events: ['investigation.started'], description: 'bad event' },
    });
    expect(unknownEvent.status).toBe(400);
    const after = (await service.call('GET', '/api/v1/admin/webhooks', { key: service.adminKey })).body
      .webhooks.length;
    expect(after).toBe(before);

    await subscribe('/twice', ['investigation.failed', 'investigation.completed']);
    const again = await service.call('POST', '/api/v1/admin/webhooks', {
      key: service.adminKey,
      body: {
        url: `${receiverBase}/twice`,
        events: ['investigation.completed', 'investigation.failed'],
        description: 'again',
      },
    });
    expect(again.status).toBe(409);
  });

  it('retries a 500 with the same webhook-id, and honours Retry-After', async () => {
    behaviours.set('/flaky', (n) => (n === 1 ? { status: 500 } : { status: 200 }));
    behaviours.set('/throttled', (n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const flaky = await subscribe('/flaky');
    const throttled = await subscribe('/throttled');
    await Promise.all([
      investigate(flaky.apiKey, '198.51.100.21'),
      investigate(throttled.apiKey, '198.51.100.22'),
    ]);
    const attempts = await until(() => (at('/flaky').length >= 2 ? at('/flaky') : undefined));
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const attempt of attempts) verify(flaky.secret, attempt);
    const waited = await until(() => (at('/throttled').length >= 2 ? at('/throttled') : undefined));
    expect(waited[1]!.at - waited[0]!.at).toBeGreaterThanOrEqual(1900);
    const [flakyLog] = await deliveriesOf(flaky.webhookId);
    expect(flakyLog).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    expect(flakyLog!.delivery_id).toBe(attempts[0]!.headers['webhook-id']);
    // The first attempt was an asynchronous invoke; the retry a one-shot schedule, deleted once it ran.
    const retries = service.webhooks.scheduler
      .created()
      .filter((schedule) => schedule.name.startsWith(flakyLog!.delivery_id));
    expect(retries.map((schedule) => [schedule.name, schedule.actionAfterCompletion])).toEqual([
      [`${flakyLog!.delivery_id}-attempt-2`, 'DELETE'],
    ]);
  });

  it('disables a webhook whose receiver answers 410', async () => {
    behaviours.set('/gone', () => ({ status: 410 }));
    const gone = await subscribe('/gone');
    await investigate(gone.apiKey, '198.51.100.23');
    await until(() => (at('/gone').length ? true : undefined));
    await settled(gone.webhookId, 'abandoned');
    const listed = await service.call('GET', '/api/v1/admin/webhooks', { key: service.adminKey });
    const webhook = listed.body.webhooks.find((w: { webhook_id: string }) => w.webhook_id === gone.webhookId);
    expect(webhook.status).toBe('disabled');
    expect((await auditOf(gone.webhookId)).entries.map((e) => [e.action, e.actor])).toEqual([
      ['webhook_create', expect.stringMatching(/^key:/)],
      ['webhook_disable', 'system:webhook-delivery'],
    ]);
    // Published after the session ended, before the poll saw it: a disabled webhook gets nothing.
    await investigate(gone.apiKey, '198.51.100.24');
    expect(await deliveriesOf(gone.webhookId)).toHaveLength(1);
    expect(at('/gone')).toHaveLength(1);
  });

  it('a hanging receiver times out without delaying the investigation or another receiver', async () => {
    behaviours.set('/hang', () => 'hang');
    const { keyId, apiKey } = await service.createKey({ name: 'hang and fast' });
    for (const path of ['/hang', '/fast']) {
      const created = await service.call('POST', '/api/v1/admin/webhooks', {
        key: service.adminKey,
        body: {
          url: `${receiverBase}${path}`,
          events: ['investigation.completed'],
          description: path,
          key_id: keyId,
        },
      });
      expect(created.status).toBe(201);
    }
    const startedAt = Date.now();
    const { endedAt } = await investigate(apiKey, '198.51.100.25');
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    const [fast] = await until(() => (at('/fast').length ? at('/fast') : undefined));
    expect(fast!.at - endedAt).toBeLessThan(1500);
    // The hanging receiver is tried again after its time-out (1 s) and the schedule's wait (1 s).
    await until(() => (at('/hang').length >= 2 ? true : undefined), 8000);
  });

  it('after a rotation only the new secret signs', async () => {
    const { webhookId, secret, apiKey } = await subscribe('/rotated');
    const rotated = await service.call('POST', `/api/v1/admin/webhooks/${webhookId}/rotate-secret`, {
      key: service.adminKey,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    await investigate(apiKey, '198.51.100.26');
    const [r] = await until(() => (at('/rotated').length ? at('/rotated') : undefined));
    expect(verify(rotated.body.secret, r!).type).toBe('investigation.completed');
    expect(() => verify(secret, r!)).toThrow();
    const audit = await auditOf(webhookId);
    expect(audit.entries.map((e) => e.action)).toEqual(['webhook_create', 'webhook_rotate_secret']);
    expect(audit.entries[0]!.details).toMatchObject({ url: `${receiverBase}/rotated` });
    // The audit says what changed, never the secret.
    expect(audit.text).not.toContain(secret.slice(6));
    expect(audit.text).not.toContain(rotated.body.secret.slice(6));
  });

  it('delivers once when every Express step runs twice', async () => {
    const { apiKey, webhookId } = await subscribe('/express-twice');
    delivery.steps = 2;
    delivery.mode = 'concurrent';
    try {
      await investigate(apiKey, '198.51.100.27');
    } finally {
      delivery.steps = undefined;
      delivery.mode = undefined;
    }
    await until(() => (at('/express-twice').length ? true : undefined));
    await settled(webhookId, 'delivered');
    // A doubled message would be claimed and dropped within milliseconds.
    await new Promise((wake) => setTimeout(wake, 300));
    expect(at('/express-twice')).toHaveLength(1);
    expect(await deliveriesOf(webhookId)).toHaveLength(1);
  });

  it('a failed outbox write retries the Persist step: the event is still delivered, once', async () => {
    const { apiKey, webhookId, secret } = await subscribe('/outbox-fault');
    const logs = captureLogs();
    let sessionId: string;
    try {
      ({ sessionId } = await investigate(apiKey, '198.51.100.28'));
    } finally {
      logs.stop();
    }
    // The fault fired: the first publication failed and was logged, then the step ran again.
    expect(
      logs.records().filter((r) => r.message === 'webhook event not published' && r.session_id === sessionId),
    ).toHaveLength(1);
    const [first] = await until(() => (at('/outbox-fault').length ? at('/outbox-fault') : undefined));
    expect(verify(secret, first!).data.session_id).toBe(sessionId);
    await settled(webhookId, 'delivered');
    await new Promise((wake) => setTimeout(wake, 300));
    expect(at('/outbox-fault')).toHaveLength(1);
    expect(await deliveriesOf(webhookId)).toMatchObject([{ status: 'delivered', attempts: 1 }]);
  });

  /** Starts a slow run of `value`, then abandons it (no later step publishes anything). */
  async function openAndAbandoned(apiKey: string, value: string) {
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: apiKey,
      body: { entity: value, background: true },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await until(() => (service.stepFunctions.abandon(started.body.run_id) > 0 ? true : undefined));
    return started.body.session_id as string;
  }

  /** Nothing reached `path` (a sent message is delivered within milliseconds): it waits in the outbox. */
  async function lostAt(path: string, webhookId: string) {
    await new Promise((wake) => setTimeout(wake, 300));
    expect(at(path)).toHaveLength(0);
    expect(await deliveriesOf(webhookId)).toMatchObject([{ status: 'pending', attempts: 0 }]);
  }

  /** A sweep `aheadSeconds` from now (its clock moved on, as the schedule's next run). */
  const sweepLater = (aheadSeconds: number, limits?: StaleSessionLimits) =>
    sweepStaleSessions(
      { ...lifecycleContext(), now: () => new Date(Date.now() + aheadSeconds * 1000) },
      limits ? { limits } : {},
    );

  async function deliveredOnce(path: string, webhookId: string, secret: string) {
    const [first] = await until(() => (at(path).length ? at(path) : undefined));
    await settled(webhookId, 'delivered');
    await new Promise((wake) => setTimeout(wake, 300));
    expect(at(path)).toHaveLength(1);
    expect(await deliveriesOf(webhookId)).toMatchObject([{ status: 'delivered', attempts: 1 }]);
    return verify(secret, first!);
  }

  it('a lost send of the cancel’s event is sent again by the sweeper: delivered once', async () => {
    const { apiKey, webhookId, secret } = await subscribe('/cancel-lost', ['investigation.canceled']);
    const sessionId = await openAndAbandoned(apiKey, CANCELED);
    const logs = captureLogs();
    try {
      const canceled = await service.call('POST', `/api/v1/public/sessions/${sessionId}/cancel`, {
        key: apiKey,
      });
      expect(canceled.status).toBe(200);
    } finally {
      logs.stop();
    }
    expect(
      logs.records().filter((r) => r.message === 'webhook event not published' && r.session_id === sessionId),
    ).toHaveLength(1);
    await lostAt('/cancel-lost', webhookId);
    // Too soon for the sweeper (the first send may still be on its way), then due.
    expect((await sweepLater(0)).redispatched).toBe(0);
    expect((await sweepLater(OUTBOX_REDISPATCH_SECONDS + 1)).redispatched).toBe(1);
    const event = await deliveredOnce('/cancel-lost', webhookId, secret);
    expect(event).toMatchObject({ type: 'investigation.canceled', data: { session_id: sessionId } });
    expect((await sweepLater(OUTBOX_REDISPATCH_SECONDS + 1)).redispatched).toBe(0);
  });

  it('a lost send of the sweeper’s event is sent again by its next run: delivered once', async () => {
    const { apiKey, webhookId, secret } = await subscribe('/sweep-lost', ['investigation.failed']);
    const sessionId = await openAndAbandoned(apiKey, SWEPT);
    await service.stepFunctions.idle();
    // Every open session is stale under these limits: the sweep ends the abandoned one.
    const swept = await sweepLater(0, {
      startGraceSeconds: 0,
      runLimitSeconds: 0,
      expressRunLimitSeconds: 0,
    });
    expect(swept.ended.map((e) => e.session_id)).toContain(sessionId);
    await lostAt('/sweep-lost', webhookId);
    expect((await sweepLater(OUTBOX_REDISPATCH_SECONDS + 1)).redispatched).toBe(1);
    const event = await deliveredOnce('/sweep-lost', webhookId, secret);
    expect(event).toMatchObject({ type: 'investigation.failed', data: { session_id: sessionId } });
  });

  it('removes a webhook (204, then 404)', async () => {
    const { webhookId } = await subscribe('/removed');
    const removed = await service.call('DELETE', `/api/v1/admin/webhooks/${webhookId}`, {
      key: service.adminKey,
    });
    expect(removed.status).toBe(204);
    const again = await service.call('DELETE', `/api/v1/admin/webhooks/${webhookId}`, {
      key: service.adminKey,
    });
    expect(again.status).toBe(404);
    expect((await auditOf(webhookId)).entries.map((e) => e.action)).toEqual([
      'webhook_create',
      'webhook_remove',
    ]);
  });
});
