import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Issue #27 item 4: one key cannot start investigations as fast as its rate limit allows. Through
 * the whole local runtime: a cap on the investigations a key has running at once and a daily quota
 * of starts per key (429 with Retry-After, the cap named), both shown in the key view; an
 * Idempotency-Key retry is never refused by them; and `refresh_intel` (which skips the cache and
 * spends the tenant's provider quotas) is for admin keys only (test/integration/intel-connectors).
 */
const SLOW = ['slow-1.example.com', 'slow-2.example.com', 'slow-3.example.com'];

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_MAX_RUNNING_INVESTIGATIONS: '2',
      SIS_DEFAULT_DAILY_INVESTIGATIONS: '4',
      SIS_FAULT_INJECTION: SLOW.map((value) => `step-run-tool@${value}=delay:4000`).join(','),
    },
  });
});

afterAll(async () => {
  await service?.stop();
});

const start = (key: string, value: string, headers: Record<string, string> = {}, background = true) =>
  service.call('POST', '/api/v1/investigations/start', {
    key,
    headers,
    body: { entity: { type: 'domain', value }, background },
  });

describe('spending caps on starting investigations', () => {
  it('refuses a third running investigation of one key with 429, Retry-After and the cap named', async () => {
    const busy = (await service.createKey({ name: 'busy plugin' })).apiKey;
    const first = await start(busy, SLOW[0]!, { 'idempotency-key': 'first-start' });
    expect(first.status).toBe(202);
    expect((await start(busy, SLOW[1]!)).status).toBe(202);

    const third = await start(busy, SLOW[2]!);
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate_limited');
    expect(third.body.error.message).toMatch(/Running-investigations cap reached: at most 2 .*2 are running/);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);

    // A retry of the first start is its answer again, not a refusal.
    const retried = await start(busy, SLOW[0]!, { 'idempotency-key': 'first-start' });
    expect(retried.status).toBe(202);
    expect(retried.body.session_id).toBe(first.body.session_id);
    // Another key is not held back by this one.
    const other = (await service.createKey({ name: 'other plugin' })).apiKey;
    expect((await start(other, 'calm.example.com', {}, false)).status).toBe(200);
  });

  it('refuses the start past the daily quota with 429 until midnight UTC, naming the quota', async () => {
    const daily = (await service.createKey({ name: 'daily plugin' })).apiKey;
    for (let i = 0; i < 4; i++) {
      const answer = await start(daily, `day-${i}.example.com`, {}, false);
      expect(answer.status).toBe(200);
    }
    const fifth = await start(daily, 'day-5.example.com', {}, false);
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.message).toMatch(/Daily investigation quota used up: at most 4 /);
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const retryAfter = Number(fifth.headers['retry-after']);
    expect(Math.abs(retryAfter - (midnight - now.getTime()) / 1000)).toBeLessThan(120);
  });

  it('shows the caps in the key view', async () => {
    const listed = await service.call('GET', '/api/v1/admin/keys', { key: service.adminKey });
    expect(listed.status).toBe(200);
    const [key] = listed.body.keys;
    expect(key.investigation_limits).toEqual({ per_day: 4, running_at_once: 2 });
  });
});
