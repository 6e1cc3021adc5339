import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * A key's whole life over HTTP through the local gateway and the real authorizer: created by an
 * admin, used, listed, rotated with a grace period, throttled and disabled.
 */
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

const admin = () => service.adminKey;
const createKey = (body: unknown) => service.call('POST', '/api/v1/admin/keys', { key: admin(), body });
const useKey = (key: string) => service.call('GET', '/api/v1/incidents', { key });
const listKeys = (search: string) =>
  service.call('GET', `/api/v1/admin/keys?search=${encodeURIComponent(search)}`, { key: admin() });

describe('API key lifecycle over HTTP', () => {
  it('creates a key that works at once within its scopes, and shows its use in the listing', async () => {
    const created = await createKey({
      name: 'HTTP lifecycle',
      description: 'e2e',
      scopes: ['incidents:read'],
    });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect((await useKey(created.body.api_key)).status).toBe(200);
    const outside = await service.call('GET', '/api/v1/search?q=x', { key: created.body.api_key });
    expect(outside.status).toBe(403);
    const listed = await listKeys('HTTP lifecycle');
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toHaveLength(1);
    expect(listed.body.keys[0].last_used_at).toEqual(expect.any(String));
    expect(listed.text).not.toContain(created.body.api_key.slice(21));
  });

  it('rotates: both secrets work during the grace period, only the new one after it', async () => {
    const created = await createKey({ name: 'rotating', scopes: ['incidents:read'] });
    const oldKey = created.body.api_key;
    const rotated = await service.call('POST', `/api/v1/admin/keys/${created.body.key_id}/rotate`, {
      key: admin(),
      body: { grace_period_seconds: 2 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ key_id: created.body.key_id, api_key: expect.any(String) });
    const newKey = rotated.body.api_key;
    expect((await useKey(oldKey)).status).toBe(200);
    expect((await useKey(newKey)).status).toBe(200);
    await new Promise((wake) =>
      setTimeout(wake, Date.parse(rotated.body.grace_period_ends_at) - Date.now() + 50),
    );
    const afterGrace = await useKey(oldKey);
    expect(afterGrace.status).toBe(401);
    expect(afterGrace.body).toMatchObject(errorShape('unauthorized'));
    expect((await useKey(newKey)).status).toBe(200);
  });

  it('rotates with an empty body: no grace period, the old secret is refused from the very next request', async () => {
    const created = await createKey({ name: 'rotating defaults', scopes: ['incidents:read'] });
    expect((await useKey(created.body.api_key)).status).toBe(200);
    const res = await service.call('POST', `/api/v1/admin/keys/${created.body.key_id}/rotate`, {
      key: admin(),
    });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.grace_period_ends_at)).toBeLessThanOrEqual(Date.now());
    const old = await useKey(created.body.api_key);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject(errorShape('unauthorized'));
    expect((await useKey(res.body.api_key)).status).toBe(200);
    expect((await listKeys('rotating defaults')).body.keys[0].grace_period_ends_at).toBeNull();
  });

  it('leaves last_used_at alone on a request refused as outside the key’s scopes (403)', async () => {
    const created = await createKey({ name: 'scope refusal only', scopes: ['incidents:read'] });
    const refused = await service.call('GET', '/api/v1/search?q=x', { key: created.body.api_key });
    expect(refused.status).toBe(403);
    expect((await listKeys('scope refusal only')).body.keys[0].last_used_at).toBeNull();
    expect((await useKey(created.body.api_key)).status).toBe(200);
    expect((await listKeys('scope refusal only')).body.keys[0].last_used_at).toEqual(expect.any(String));
  });

  it('disables: the very next request is refused, a second disable is fine, rotation is 409', async () => {
    const created = await createKey({ name: 'to disable', scopes: ['incidents:read'] });
    expect((await useKey(created.body.api_key)).status).toBe(200);
    const path = `/api/v1/admin/keys/${created.body.key_id}`;
    expect((await service.call('POST', `${path}/disable`, { key: admin() })).status).toBe(200);
    expect((await useKey(created.body.api_key)).status).toBe(401);
    expect((await service.call('POST', `${path}/disable`, { key: admin() })).status).toBe(200);
    const rotate = await service.call('POST', `${path}/rotate`, { key: admin(), body: {} });
    expect(rotate.status).toBe(409);
    expect(rotate.body).toMatchObject(errorShape('conflict'));
    expect((await listKeys('to disable')).body.keys[0].status).toBe('disabled');
  });

  it('answers 404 for an unknown key ID', async () => {
    const res = await service.call('POST', '/api/v1/admin/keys/aaaaaaaaaaaaaaaa/disable', { key: admin() });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape('not_found'));
  });
});

describe('per-key rate limits at the gateway', () => {
  it('throttles beyond the burst with 429 and Retry-After, per key', async () => {
    const slow = await createKey({
      name: 'throttled',
      scopes: ['incidents:read'],
      rate_limit: { rate_per_second: 0.5, burst: 2 },
    });
    const other = await createKey({ name: 'neighbour', scopes: ['incidents:read'] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await useKey(slow.body.api_key)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const throttled = await useKey(slow.body.api_key);
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject(errorShape('rate_limited'));
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await useKey(other.body.api_key)).status).toBe(200);
  });

  it('enforces a daily quota', async () => {
    const capped = await createKey({
      name: 'capped',
      scopes: ['incidents:read'],
      rate_limit: { rate_per_second: 100, burst: 100, daily_quota: 3 },
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await useKey(capped.body.api_key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
