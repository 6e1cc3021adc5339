import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler } from '../../../functions/authorizer/handler';
import { ROUTES } from '../../../shared/api/routes';
import { config, parseConfig, resetConfigForTests } from '../../../shared/config';
import { formatApiKey, generateKeyId, generateSecret } from '../../../shared/domain/keys/api-key';
import { methodArn, type PolicyDocument, policyAllows } from '../../../shared/domain/keys/policy';
import { logger } from '../../../shared/observability';
import { noUsagePlans } from '../../../shared/platform/usage-plans';
import { ApiKeyService, apiKeyService } from '../../../shared/services/auth/api-keys';
import { decide, policyRoutes } from '../../../shared/services/auth/key-authorizer';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { KeysRepository, keysRepositoryFromConfig } from '../../../shared/store/keys-repository';
import { authorizerEvent, TEST_API } from '../../support/api-key-events';
import { createIsolatedTables } from '../../support/dynamodb';
import { tamperedApiKey } from '../../support/tampered-api-key';

const routes = policyRoutes(ROUTES);
const plugin = { name: 'plugin', scopes: ['investigations:read', 'graph:read'] };

/** Every log call made while the tests run, to prove no key or secret reaches the logs. */
const logged: string[] = [];

beforeAll(async () => {
  const tables = await createIsolatedTables();
  Object.assign(process.env, tables.env);
  resetConfigForTests();
  for (const level of ['debug', 'info', 'warn', 'error', 'critical'] as const) {
    const original = logger[level].bind(logger) as (...args: unknown[]) => void;
    vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
      logged.push(
        JSON.stringify(args, (_k, v) => (v instanceof Error ? { message: v.message, stack: v.stack } : v)),
      );
      original(...args);
    });
  }
});

afterAll(() => {
  vi.restoreAllMocks();
});

const authorize = (headers: Record<string, string>, method = 'GET', path = '/api/v1/admin/keys') =>
  handler(authorizerEvent(headers, method, path));

async function expectUnauthorized(headers: Record<string, string>) {
  await expect(authorize(headers)).rejects.toThrow(/^Unauthorized$/);
}

const allows = (result: APIGatewayAuthorizerResult, method: string, path: string) =>
  policyAllows(result.policyDocument as PolicyDocument, methodArn(TEST_API, method, path));

describe('API key authorizer', () => {
  it('accepts an admin key and allows exactly the routes of its role', async () => {
    const { summary, apiKey } = await apiKeyService().create(
      { name: 'admin', scopes: [], role: 'admin' },
      'test',
    );
    const result = await authorize({ 'X-API-Key': apiKey });
    expect(result.principalId).toBe(summary.key_id);
    expect(result.context).toEqual({
      keyId: summary.key_id,
      keyName: 'admin',
      role: 'admin',
      scopes: '',
      rateLimitPerSecond: 10,
      burstLimit: 20,
      dailyQuota: 0,
    });
    expect(result.usageIdentifierKey).toBe(summary.key_id);
    expect(allows(result, 'GET', '/api/v1/admin/keys')).toBe(true);
    expect(allows(result, 'POST', '/api/v1/admin/keys/abcdefgh23456789/rotate')).toBe(true);
    expect(allows(result, 'DELETE', '/api/v1/admin/keys')).toBe(false);
  });

  it('gives a client key no admin route and hands over its scopes and limits', async () => {
    const { apiKey } = await apiKeyService().create(
      { ...plugin, rate_limit: { rate_per_second: 2, burst: 3, daily_quota: 50 } },
      'test',
    );
    const result = await authorize({ 'x-api-key': apiKey });
    expect(result.context).toMatchObject({
      role: 'client',
      scopes: 'investigations:read,graph:read',
      rateLimitPerSecond: 2,
      burstLimit: 3,
      dailyQuota: 50,
    });
    for (const route of ROUTES.filter((r) => r.access.kind === 'admin')) {
      expect(allows(result, route.method, route.path.replace('{key_id}', 'abcdefgh23456789'))).toBe(false);
    }
  });

  it('accepts Authorization: Bearer as an equivalent of X-API-Key', async () => {
    const { summary, apiKey } = await apiKeyService().create(plugin, 'test');
    expect((await authorize({ authorization: `Bearer ${apiKey}` })).principalId).toBe(summary.key_id);
  });

  it.each([
    ['no key', {}],
    ['an empty key', { 'X-API-Key': '' }],
    ['garbage', { 'X-API-Key': 'hunter2' }],
    ['a Basic authorization', { Authorization: 'Basic dXNlcjpwYXNz' }],
  ])('refuses %s with Unauthorized', async (_label, headers) => {
    await expectUnauthorized(headers);
  });

  it('refuses a well-formed key that does not exist, and a real key ID with a forged secret', async () => {
    const keyId = generateKeyId();
    await expectUnauthorized({ 'X-API-Key': generateSecret(keyId).apiKey });
    const { summary } = await apiKeyService().create(plugin, 'test');
    await expectUnauthorized({
      'X-API-Key': formatApiKey(summary.key_id, generateSecret(summary.key_id).secret),
    });
  });

  it('refuses a disabled key from the very next request', async () => {
    const service = apiKeyService();
    const { summary, apiKey } = await service.create(plugin, 'test');
    await authorize({ 'X-API-Key': apiKey });
    await service.disable(summary.key_id, 'test');
    await expectUnauthorized({ 'X-API-Key': apiKey });
  });

  it('refuses an expired key', async () => {
    const repository = keysRepositoryFromConfig(config());
    const past = new ApiKeyService({
      repository,
      usagePlans: noUsagePlans,
      now: () => new Date(Date.now() - 2 * 86_400_000),
    });
    const { apiKey } = await past.create({ ...plugin, expires_in_days: 1 }, 'test');
    await expectUnauthorized({ 'X-API-Key': apiKey });
  });

  it('accepts both secrets during the grace period, only the new one after it', async () => {
    const service = apiKeyService();
    const { summary, apiKey: oldKey } = await service.create(plugin, 'test');
    const rotated = await service.rotate(summary.key_id, { grace_period_seconds: 1 }, 'test');
    expect((await authorize({ 'X-API-Key': oldKey })).principalId).toBe(summary.key_id);
    expect((await authorize({ 'X-API-Key': rotated.apiKey })).principalId).toBe(summary.key_id);
    await new Promise((wake) => setTimeout(wake, Date.parse(rotated.gracePeriodEndsAt) - Date.now() + 50));
    await expectUnauthorized({ 'X-API-Key': oldKey });
    expect((await authorize({ 'X-API-Key': rotated.apiKey })).principalId).toBe(summary.key_id);
  });

  it('refuses the old secret at once after a rotation without grace period', async () => {
    const service = apiKeyService();
    const { summary, apiKey: oldKey } = await service.create(plugin, 'test');
    const rotated = await service.rotate(summary.key_id, { grace_period_seconds: 0 }, 'test');
    await expectUnauthorized({ 'X-API-Key': oldKey });
    expect((await authorize({ 'X-API-Key': rotated.apiKey })).principalId).toBe(summary.key_id);
  });

  it('records last_used_at on first use and not again within the minute', async () => {
    const service = apiKeyService();
    const { summary, apiKey } = await service.create(plugin, 'test');
    expect((await service.list(summary.key_id))[0]?.last_used_at).toBeNull();
    // Outside the key's scopes: the gateway answers 403, and the refusal is not a use.
    await authorize({ 'X-API-Key': apiKey }, 'GET', '/api/v1/admin/keys');
    expect((await service.list(summary.key_id))[0]?.last_used_at).toBeNull();
    await authorize({ 'X-API-Key': apiKey }, 'GET', '/api/v1/graph/entity/x');
    const first = (await service.list(summary.key_id))[0]?.last_used_at;
    expect(first).not.toBeNull();
    await new Promise((wake) => setTimeout(wake, 20));
    await authorize({ 'X-API-Key': apiKey }, 'GET', '/api/v1/graph/entity/x');
    expect((await service.list(summary.key_id))[0]?.last_used_at).toBe(first);
  });

  it('costs one strongly consistent GetItem per request plus one write per key per minute, and no read for garbage', async () => {
    const doc = createDocumentClient(parseConfig(process.env));
    const commands: string[] = [];
    doc.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(
          `${context.commandName}${(args.input as { ConsistentRead?: boolean }).ConsistentRead ? ':consistent' : ''}`,
        );
        return next(args);
      },
      { step: 'initialize', name: 'countCommands' },
    );
    const service = new ApiKeyService({
      repository: new KeysRepository(doc, config().SIS_KEYS_TABLE),
      usagePlans: noUsagePlans,
    });
    const { apiKey } = await apiKeyService().create(plugin, 'test');
    const requests = 200;
    const started = performance.now();
    for (let i = 0; i < requests; i++) {
      const outcome = await decide(
        authorizerEvent({ 'X-API-Key': apiKey }, 'GET', '/api/v1/graph/entity/x'),
        service,
        routes,
      );
      expect(outcome.ok).toBe(true);
    }
    const perRequestMs = (performance.now() - started) / requests;
    expect(commands.filter((c) => c === 'GetItemCommand:consistent')).toHaveLength(requests);
    expect(commands.filter((c) => c === 'UpdateItemCommand')).toHaveLength(1);
    expect(commands).toHaveLength(requests + 1);
    console.info(`authorizer decision against DynamoDB Local: ${perRequestMs.toFixed(2)} ms per request`);

    commands.length = 0;
    await decide(authorizerEvent({ 'X-API-Key': tamperedApiKey(apiKey) }), service, routes);
    await decide(authorizerEvent({}), service, routes);
    expect(commands).toEqual([]);
  });

  it('never writes a presented key or secret to the logs', async () => {
    const { apiKey } = await apiKeyService().create(plugin, 'test');
    await authorize({ 'X-API-Key': apiKey });
    await expectUnauthorized({ 'X-API-Key': tamperedApiKey(apiKey) });
    const secret = apiKey.slice(21, 64);
    const logs = logged.join('\n');
    expect(logs).toContain('api key rejected');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(apiKey.slice(0, -2));
  });
});
