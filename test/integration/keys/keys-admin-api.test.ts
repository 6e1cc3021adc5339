import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createHandler } from '../../../functions/create-api-key/handler';
import { handler as disableHandler } from '../../../functions/disable-api-key/handler';
import { handler as listHandler } from '../../../functions/list-api-keys/handler';
import { handler as rotateHandler } from '../../../functions/rotate-api-key/handler';
import { config, resetConfigForTests } from '../../../shared/config';
import { parseApiKey } from '../../../shared/domain/keys/api-key';
import type { Caller } from '../../../shared/domain/keys/scopes';
import { keysRepositoryFromConfig } from '../../../shared/store/keys-repository';
import { lambdaContext, proxyEvent } from '../../support/api-key-events';
import { createIsolatedTables } from '../../support/dynamodb';

type Handler = (
  event: APIGatewayProxyEvent,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyResult>;

const admin: Caller = { keyId: 'adminadminadmin2', role: 'admin', scopes: [] };

async function call(handler: unknown, event: APIGatewayProxyEvent) {
  const result = await (handler as Handler)(event, lambdaContext());
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}

const create = (body: unknown, caller = admin) =>
  call(createHandler, proxyEvent({ method: 'POST', resource: '/api/v1/admin/keys', body, caller }));
const list = (search?: string) =>
  call(
    listHandler,
    proxyEvent({
      method: 'GET',
      resource: '/api/v1/admin/keys',
      caller: admin,
      ...(search ? { query: { search } } : {}),
    }),
  );
const rotate = (keyId: string, body?: unknown) =>
  call(
    rotateHandler,
    proxyEvent({
      method: 'POST',
      resource: '/api/v1/admin/keys/{key_id}/rotate',
      pathParameters: { key_id: keyId },
      caller: admin,
      ...(body === undefined ? {} : { body }),
    }),
  );
const disable = (keyId: string) =>
  call(
    disableHandler,
    proxyEvent({
      method: 'POST',
      resource: '/api/v1/admin/keys/{key_id}/disable',
      pathParameters: { key_id: keyId },
      caller: admin,
    }),
  );

const plugin = {
  name: 'Security Copilot plugin',
  description: 'SOC assistant',
  scopes: ['investigations:read', 'investigations:write', 'incidents:read', 'search:read', 'graph:read'],
  expires_in_days: 30,
};

beforeAll(async () => {
  const tables = await createIsolatedTables();
  Object.assign(process.env, tables.env);
  resetConfigForTests();
});

describe('createApiKey', () => {
  it('answers 201 with the contract fields and the secret shown once, uncached', async () => {
    const before = Date.now();
    const { status, headers, body } = await create(plugin);
    expect(status).toBe(201);
    expect(headers['cache-control']).toBe('no-store');
    expect(body).toMatchObject({
      name: plugin.name,
      description: plugin.description,
      scopes: plugin.scopes,
      status: 'active',
      role: 'client',
      created_by: admin.keyId,
      last_used_at: null,
      rate_limit: { rate_per_second: 10, burst: 20 },
    });
    for (const field of [
      'key_id',
      'api_key',
      'key_prefix',
      'name',
      'description',
      'scopes',
      'expires_at',
      'status',
    ]) {
      expect(body).toHaveProperty(field);
    }
    expect(parseApiKey(body.api_key)?.keyId).toBe(body.key_id);
    expect(body.api_key.startsWith(body.key_prefix)).toBe(true);
    const expiry = Date.parse(body.expires_at);
    expect(expiry).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(expiry).toBeLessThan(Date.now() + 30 * 86_400_000 + 1000);
    expect(JSON.stringify(body)).not.toMatch(/secret_hash|[0-9a-f]{64}/);
  });

  it('defaults the expiry to 90 days and accepts custom rate limits and the admin role', async () => {
    const { body } = await create({
      name: 'ops admin',
      scopes: [],
      role: 'admin',
      rate_limit: { rate_per_second: 1, burst: 2, daily_quota: 100 },
    });
    expect(body.role).toBe('admin');
    expect(body.rate_limit).toEqual({ rate_per_second: 1, burst: 2, daily_quota: 100 });
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(90 * 86_400_000);
  });

  it.each([
    ['admin as a scope', { ...plugin, scopes: ['admin'] }, 'body.scopes.0'],
    ['an unknown scope', { ...plugin, scopes: ['graph:write'] }, 'body.scopes.0'],
    ['a client key without scopes', { ...plugin, scopes: [] }, 'scopes'],
    ['expiry beyond 365 days', { ...plugin, expires_in_days: 400 }, 'body.expires_in_days'],
    ['a missing name', { scopes: ['graph:read'] }, 'body.name'],
    ['an unknown field', { ...plugin, expires_days: 10 }, 'body'],
    ['a zero burst', { ...plugin, rate_limit: { rate_per_second: 1, burst: 0 } }, 'body.rate_limit.burst'],
  ])('answers 400 for %s', async (_label, input, path) => {
    const { status, body } = await create(input);
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_error');
    expect(body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});

describe('listApiKeys', () => {
  it('lists every key with key_prefix but no secret or hash in any field', async () => {
    const created = await create({ ...plugin, name: 'Listed integration' });
    const { status, body } = await list();
    expect(status).toBe(200);
    const entry = body.keys.find((k: { key_id: string }) => k.key_id === created.body.key_id);
    expect(entry).toMatchObject({
      key_prefix: created.body.key_prefix,
      name: 'Listed integration',
      status: 'active',
    });
    expect(entry).not.toHaveProperty('api_key');
    const json = JSON.stringify(body);
    expect(json).not.toContain(created.body.api_key);
    expect(json).not.toContain(parseApiKey(created.body.api_key)?.secret);
    expect(json).not.toMatch(/secret|hash|usage_identifier|apigw|[0-9a-f]{64}/i);
  });

  it('filters by ?search= on name, description and prefix, case-insensitively', async () => {
    const splunk = await create({ ...plugin, name: 'Splunk connector', description: 'pushes notables' });
    await create({ ...plugin, name: 'Sentinel connector' });
    const byName = await list('SPLUNK');
    expect(byName.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([splunk.body.key_id]);
    const byDescription = await list('notables');
    expect(byDescription.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([splunk.body.key_id]);
    const byPrefix = await list(splunk.body.key_prefix);
    expect(byPrefix.body.keys).toHaveLength(1);
    expect((await list('no-such-integration')).body.keys).toEqual([]);
  });
});

describe('rotateApiKey', () => {
  it('returns a new secret for the same key ID with the grace period asked for', async () => {
    const created = await create(plugin);
    const before = Date.now();
    const { status, headers, body } = await rotate(created.body.key_id, { grace_period_seconds: 3600 });
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-store');
    expect(body.key_id).toBe(created.body.key_id);
    expect(body.api_key).not.toBe(created.body.api_key);
    expect(parseApiKey(body.api_key)?.keyId).toBe(created.body.key_id);
    expect(body.api_key.startsWith(body.key_prefix)).toBe(true);
    const graceEnd = Date.parse(body.grace_period_ends_at);
    expect(graceEnd).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(graceEnd).toBeLessThan(Date.now() + 3_600_000 + 1000);
    expect(body.expires_at).toBe(created.body.expires_at);
    const listed = (await list(created.body.key_id)).body.keys[0];
    expect(listed.key_prefix).toBe(body.key_prefix);
    expect(listed.grace_period_ends_at).toBe(body.grace_period_ends_at);
  });

  it('accepts an explicit grace period of 0 and a new expiry', async () => {
    const created = await create(plugin);
    const { status, body } = await rotate(created.body.key_id, {
      grace_period_seconds: 0,
      expires_in_days: 365,
    });
    expect(status).toBe(200);
    expect(Date.parse(body.grace_period_ends_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.parse(created.body.expires_at));
    expect((await list(created.body.key_id)).body.keys[0].grace_period_ends_at).toBeNull();
  });

  it.each([
    [{ grace_period_seconds: 604_801 }],
    [{ grace_period_seconds: -1 }],
    [{ grace_period_seconds: 'soon' }],
    [{ grace: 10 }],
  ])('answers 400 for %j', async (input) => {
    const created = await create(plugin);
    expect((await rotate(created.body.key_id, input)).status).toBe(400);
  });

  it('answers 404 for an unknown key and 400 for a malformed key ID', async () => {
    expect((await rotate('aaaaaaaaaaaaaaaa')).status).toBe(404);
    const malformed = await rotate('NOT-A-KEY');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].path).toBe('path.key_id');
  });

  it('answers 409 for a disabled key', async () => {
    const created = await create(plugin);
    await disable(created.body.key_id);
    const { status, body } = await rotate(created.body.key_id);
    expect(status).toBe(409);
    expect(body.error.code).toBe('conflict');
  });
});

describe('disableApiKey', () => {
  it('disables a key, idempotently, and audits both calls', async () => {
    const created = await create(plugin);
    const first = await disable(created.body.key_id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ key_id: created.body.key_id, status: 'disabled' });
    const second = await disable(created.body.key_id);
    expect(second.status).toBe(200);
    expect(second.body.disabled_at).toBe(first.body.disabled_at);
    expect((await list(created.body.key_id)).body.keys[0].status).toBe('disabled');
    const repository = keysRepositoryFromConfig(config());
    const audits = (await repository.listAudit(1000)).filter((a) => a.key_id === created.body.key_id);
    expect(audits.map((a) => [a.action, a.details.outcome ?? null, a.actor])).toEqual([
      ['disable', 'already_disabled', admin.keyId],
      ['disable', 'disabled', admin.keyId],
      ['create', null, admin.keyId],
    ]);
  });

  it('answers 404 for an unknown key', async () => {
    const { status, body } = await disable('bbbbbbbbbbbbbbbb');
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
  });
});
