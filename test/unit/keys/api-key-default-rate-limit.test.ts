import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../shared/config';
import { ValidationError } from '../../../shared/domain/core/errors';
import { generateSecret } from '../../../shared/domain/keys/api-key';
import { newKeyRecord } from '../../../shared/domain/keys/key-lifecycle';
import {
  DEFAULT_RATE_LIMIT,
  deploymentDefaultRateLimit,
  isDefaultRateLimit,
} from '../../../shared/domain/keys/rate-limit';
import {
  ApiGatewayUsagePlans,
  type ControlPlaneClient,
  defaultRateLimitFromConfig,
  usagePlansFromConfig,
} from '../../../shared/platform/usage-plans';

const T0 = new Date('2026-11-01T12:00:00.000Z');
const KEY_ID = 'aaaaaaaaaaaaaaaa';

function recordingClient() {
  const sent: { command: string; input: Record<string, unknown> }[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name;
      sent.push({ command: name, input: command.input });
      if (name === 'CreateApiKeyCommand') return { id: 'apikey1', value: command.input.value };
      if (name === 'CreateUsagePlanCommand') return { id: 'own-plan' };
      return {};
    },
  };
  return { client: client as unknown as ControlPlaneClient, sent };
}

describe("a deployment's default rate limits", () => {
  it('fall back to the built-in 10/s, burst 20, no quota, item by item', () => {
    expect(deploymentDefaultRateLimit({})).toEqual(DEFAULT_RATE_LIMIT);
    expect(deploymentDefaultRateLimit({ ratePerSecond: 50 })).toEqual({ rate_per_second: 50, burst: 20 });
    expect(deploymentDefaultRateLimit({ ratePerSecond: 50, burst: 100, dailyQuota: 0 })).toEqual({
      rate_per_second: 50,
      burst: 100,
    });
    expect(deploymentDefaultRateLimit({ ratePerSecond: 2.5, burst: 5, dailyQuota: 1000 })).toEqual({
      rate_per_second: 2.5,
      burst: 5,
      daily_quota: 1000,
    });
    expect(() => deploymentDefaultRateLimit({ burst: 1.5 })).toThrow(ValidationError);
  });

  it('decide which keys share the default plan: exactly equal limits, quota included', () => {
    const deployment = { rate_per_second: 50, burst: 100, daily_quota: 5000 };
    expect(isDefaultRateLimit({ ...deployment }, deployment)).toBe(true);
    expect(isDefaultRateLimit({ rate_per_second: 50, burst: 100 }, deployment)).toBe(false);
    expect(isDefaultRateLimit({ ...deployment, daily_quota: 4999 }, deployment)).toBe(false);
    expect(isDefaultRateLimit({ ...DEFAULT_RATE_LIMIT }, deployment)).toBe(false);
    // Without deployment defaults the built-in ones apply, as before.
    expect(isDefaultRateLimit({ ...DEFAULT_RATE_LIMIT })).toBe(true);
    expect(isDefaultRateLimit({ rate_per_second: 50, burst: 100 })).toBe(false);
  });

  it('come from SIS_DEFAULT_* and are validated like the settings the stack takes them from', () => {
    expect(defaultRateLimitFromConfig(parseConfig({}))).toEqual(DEFAULT_RATE_LIMIT);
    const cfg = parseConfig({
      SIS_DEFAULT_RATE_PER_SECOND: '50',
      SIS_DEFAULT_BURST: '100',
      SIS_DEFAULT_DAILY_QUOTA: '5000',
    });
    expect(defaultRateLimitFromConfig(cfg)).toEqual({ rate_per_second: 50, burst: 100, daily_quota: 5000 });
    expect(defaultRateLimitFromConfig(parseConfig({ SIS_DEFAULT_DAILY_QUOTA: '0' }))).toEqual(
      DEFAULT_RATE_LIMIT,
    );
    for (const env of [
      { SIS_DEFAULT_RATE_PER_SECOND: '0' },
      { SIS_DEFAULT_RATE_PER_SECOND: '10001' },
      { SIS_DEFAULT_BURST: '2.5' },
      { SIS_DEFAULT_BURST: '5001' },
      { SIS_DEFAULT_DAILY_QUOTA: '-1' },
    ]) {
      expect(() => parseConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => parseConfig(env)).toThrow(Object.keys(env)[0] as string);
    }
  });

  it('are what a key created without its own limits is stored with', () => {
    const deployment = { rate_per_second: 50, burst: 100 };
    const secret = generateSecret(KEY_ID);
    const input = { name: 'plugin', scopes: ['graph:read'] };
    expect(newKeyRecord(input, KEY_ID, secret, 'admin', T0, deployment).rate_limit).toEqual(deployment);
    expect(newKeyRecord(input, KEY_ID, secret, 'admin', T0).rate_limit).toEqual(DEFAULT_RATE_LIMIT);
    const own = { rate_per_second: 1, burst: 2 };
    expect(
      newKeyRecord({ ...input, rate_limit: own }, KEY_ID, secret, 'admin', T0, deployment).rate_limit,
    ).toEqual(own);
  });
});

describe('usage plans with deployment defaults', () => {
  const settings = {
    tenant: 'acme',
    restApiId: 'api123',
    stageName: 'prod',
    defaultUsagePlanId: 'default-plan',
    defaultRateLimit: { rate_per_second: 50, burst: 100 },
    authorizerCacheTtlSeconds: 0,
  };

  it('adds a key with the deployment defaults to the default plan', async () => {
    const { client, sent } = recordingClient();
    await new ApiGatewayUsagePlans(client, settings).register({
      key_id: KEY_ID,
      rate_limit: { rate_per_second: 50, burst: 100 },
    });
    expect(sent.map((s) => s.command)).toEqual(['CreateApiKeyCommand', 'CreateUsagePlanKeyCommand']);
    expect(sent[1]?.input).toEqual({ usagePlanId: 'default-plan', keyId: 'apikey1', keyType: 'API_KEY' });
  });

  it('gives a key asking for the built-in 10/s its own plan, since the default plan enforces 50/s', async () => {
    const { client, sent } = recordingClient();
    await new ApiGatewayUsagePlans(client, settings).register({
      key_id: KEY_ID,
      rate_limit: { ...DEFAULT_RATE_LIMIT },
    });
    expect(sent.map((s) => s.command)).toEqual([
      'CreateApiKeyCommand',
      'CreateUsagePlanCommand',
      'CreateUsagePlanKeyCommand',
    ]);
    expect(sent[1]?.input).toMatchObject({ throttle: { rateLimit: 10, burstLimit: 20 } });
    expect(sent[2]?.input).toMatchObject({ usagePlanId: 'own-plan' });
  });

  it('takes the defaults from the stack variables', async () => {
    const { client, sent } = recordingClient();
    const port = usagePlansFromConfig(
      parseConfig({
        SIS_TENANT: 'acme',
        SIS_REST_API_ID: 'api123',
        SIS_STAGE_NAME: 'prod',
        SIS_USAGE_PLAN_ID: 'default-plan',
        SIS_DEFAULT_RATE_PER_SECOND: '50',
        SIS_DEFAULT_BURST: '100',
        SIS_DEFAULT_DAILY_QUOTA: '5000',
      }),
      client,
    );
    await port.register({
      key_id: KEY_ID,
      rate_limit: { rate_per_second: 50, burst: 100, daily_quota: 5000 },
    });
    expect(sent.map((s) => s.command)).toEqual(['CreateApiKeyCommand', 'CreateUsagePlanKeyCommand']);
    expect(sent[1]?.input).toMatchObject({ usagePlanId: 'default-plan' });
  });
});
