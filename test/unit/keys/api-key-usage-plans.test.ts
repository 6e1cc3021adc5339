import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import {
  ApiGatewayUsagePlans,
  type ControlPlaneClient,
  noUsagePlans,
  usagePlansFromConfig,
} from '../../../shared/platform/usage-plans';

/** Records every control-plane command (name and exact input) and answers like API Gateway. */
function recordingClient(failOn?: string) {
  const sent: { command: string; input: Record<string, unknown> }[] = [];
  let counter = 0;
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name;
      sent.push({ command: name, input: command.input });
      if (name === failOn) throw Object.assign(new Error('boom'), { name: 'TooManyRequestsException' });
      counter++;
      if (name === 'CreateApiKeyCommand') return { id: `apikey${counter}`, value: command.input.value };
      if (name === 'CreateUsagePlanCommand') return { id: `plan${counter}` };
      return {};
    },
  };
  return { client: client as unknown as ControlPlaneClient, sent };
}

const settings = {
  tenant: 'acme',
  restApiId: 'api123',
  stageName: 'prod',
  defaultUsagePlanId: 'default-plan',
  authorizerCacheTtlSeconds: 0,
};
const defaults = { rate_per_second: 10, burst: 20 };

describe('API Gateway usage plans adapter', () => {
  it('adds a key with default limits to the default usage plan', async () => {
    const { client, sent } = recordingClient();
    const identity = await new ApiGatewayUsagePlans(client, settings).register({
      key_id: 'aaaaaaaaaaaaaaaa',
      rate_limit: defaults,
    });
    expect(sent.map((s) => s.command)).toEqual(['CreateApiKeyCommand', 'CreateUsagePlanKeyCommand']);
    const value = sent[0]?.input.value as string;
    expect(value).toMatch(/^sisu_[a-z2-7]{32}$/);
    expect(sent[0]?.input).toEqual({
      name: 'sis-acme-aaaaaaaaaaaaaaaa',
      description: 'Usage-plan identifier of service key aaaaaaaaaaaaaaaa; not a credential',
      enabled: true,
      value,
      tags: { 'sis:tenant': 'acme', 'sis:key_id': 'aaaaaaaaaaaaaaaa' },
    });
    expect(sent[1]?.input).toEqual({ usagePlanId: 'default-plan', keyId: 'apikey1', keyType: 'API_KEY' });
    expect(identity).toEqual({
      usage_identifier_key: value,
      apigw_key_id: 'apikey1',
      usage_plan_id: 'default-plan',
    });
  });

  it('gives a key with custom limits its own plan on the stage, with throttle and daily quota', async () => {
    const { client, sent } = recordingClient();
    const identity = await new ApiGatewayUsagePlans(client, settings).register({
      key_id: 'bbbbbbbbbbbbbbbb',
      rate_limit: { rate_per_second: 2, burst: 4, daily_quota: 5000 },
    });
    expect(sent.map((s) => s.command)).toEqual([
      'CreateApiKeyCommand',
      'CreateUsagePlanCommand',
      'CreateUsagePlanKeyCommand',
    ]);
    expect(sent[1]?.input).toEqual({
      name: 'sis-acme-bbbbbbbbbbbbbbbb',
      description: 'Limits of service key bbbbbbbbbbbbbbbb',
      apiStages: [{ apiId: 'api123', stage: 'prod' }],
      throttle: { rateLimit: 2, burstLimit: 4 },
      quota: { limit: 5000, period: 'DAY' },
      tags: { 'sis:tenant': 'acme', 'sis:key_id': 'bbbbbbbbbbbbbbbb' },
    });
    expect(sent[2]?.input).toEqual({ usagePlanId: 'plan2', keyId: 'apikey1', keyType: 'API_KEY' });
    expect(identity.usage_plan_id).toBe('plan2');
  });

  it('creates a per-key plan when no default plan is configured', async () => {
    const { client, sent } = recordingClient();
    const { defaultUsagePlanId: _, ...withoutDefault } = settings;
    await new ApiGatewayUsagePlans(client, withoutDefault).register({
      key_id: 'cccccccccccccccc',
      rate_limit: defaults,
    });
    expect(sent[1]?.command).toBe('CreateUsagePlanCommand');
    expect(sent[1]?.input).not.toHaveProperty('quota');
  });

  it('removes what it created when attaching the key to the plan fails', async () => {
    const { client, sent } = recordingClient('CreateUsagePlanKeyCommand');
    await expect(
      new ApiGatewayUsagePlans(client, settings).register({
        key_id: 'dddddddddddddddd',
        rate_limit: { rate_per_second: 1, burst: 1 },
      }),
    ).rejects.toThrow('boom');
    expect(sent.slice(3)).toEqual([
      { command: 'DeleteApiKeyCommand', input: { apiKey: 'apikey1' } },
      {
        command: 'UpdateUsagePlanCommand',
        input: {
          usagePlanId: 'plan2',
          patchOperations: [{ op: 'remove', path: '/apiStages', value: 'api123:prod' }],
        },
      },
      { command: 'DeleteUsagePlanCommand', input: { usagePlanId: 'plan2' } },
    ]);
  });

  it('never deletes the shared default plan when undoing a registration', async () => {
    const { client, sent } = recordingClient();
    await new ApiGatewayUsagePlans(client, settings).unregister({
      usage_identifier_key: 'sisu_x',
      apigw_key_id: 'k1',
      usage_plan_id: 'default-plan',
    });
    expect(sent).toEqual([{ command: 'DeleteApiKeyCommand', input: { apiKey: 'k1' } }]);
  });

  it('disables the API Gateway key of a disabled service key', async () => {
    const { client, sent } = recordingClient();
    await new ApiGatewayUsagePlans(client, settings).disable({ apigw_key_id: 'k9' });
    expect(sent).toEqual([
      {
        command: 'UpdateApiKeyCommand',
        input: { apiKey: 'k9', patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }] },
      },
    ]);
    await new ApiGatewayUsagePlans(client, settings).disable({});
    expect(sent).toHaveLength(1);
  });

  it('flushes the stage authorizer cache only when caching is on', async () => {
    const off = recordingClient();
    await new ApiGatewayUsagePlans(off.client, settings).flushAuthorizerCache();
    expect(off.sent).toEqual([]);
    const on = recordingClient();
    await new ApiGatewayUsagePlans(on.client, {
      ...settings,
      authorizerCacheTtlSeconds: 300,
    }).flushAuthorizerCache();
    expect(on.sent).toEqual([
      { command: 'FlushStageAuthorizersCacheCommand', input: { restApiId: 'api123', stageName: 'prod' } },
    ]);
  });

  it('does nothing at all without a REST API (local runtime)', async () => {
    const { client, sent } = recordingClient();
    const port = usagePlansFromConfig(parseConfig({}), client);
    expect(port).toBe(noUsagePlans);
    expect(await port.register({ key_id: 'eeeeeeeeeeeeeeee', rate_limit: defaults })).toBeUndefined();
    await port.disable({ apigw_key_id: 'x' });
    await port.flushAuthorizerCache();
    expect(sent).toEqual([]);
  });

  it('is configured from the stack variables on AWS', async () => {
    const { client, sent } = recordingClient();
    const port = usagePlansFromConfig(
      parseConfig({
        SIS_TENANT: 'acme',
        SIS_REST_API_ID: 'api123',
        SIS_STAGE_NAME: 'prod',
        SIS_USAGE_PLAN_ID: 'default-plan',
        SIS_AUTHORIZER_CACHE_TTL_SECONDS: '60',
      }),
      client,
    );
    await port.flushAuthorizerCache();
    expect(sent).toEqual([
      { command: 'FlushStageAuthorizersCacheCommand', input: { restApiId: 'api123', stageName: 'prod' } },
    ]);
    expect(() => usagePlansFromConfig(parseConfig({ SIS_REST_API_ID: 'api123' }), client)).toThrow(
      /SIS_STAGE_NAME/,
    );
  });
});
