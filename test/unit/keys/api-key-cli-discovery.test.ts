import { describe, expect, it } from 'vitest';
import {
  ApiDiscoveryError,
  discoverApiGateway,
  PAGE_LIMIT,
  withApiGateway,
} from '../../../bin/cli/discover-api';
import { parseConfig } from '../../../shared/config';
import type { ControlPlaneClient } from '../../../shared/platform/usage-plans';
import { defaultRateLimitFromConfig, usagePlansFromConfig } from '../../../shared/platform/usage-plans';

type Input = Record<string, unknown>;
type Answer = (input: Input) => unknown;

/**
 * A fake API Gateway control plane: answers each command from `answers` (by command name), records
 * every command and its exact input, and fails like the SDK for commands it has no answer for.
 */
function fakeApiGateway(answers: Record<string, Answer>) {
  const sent: { command: string; input: Input }[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Input }) => {
      const name = command.constructor.name;
      sent.push({ command: name, input: command.input });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected ${name}`);
      return answer(command.input);
    },
  };
  return { client: client as unknown as ControlPlaneClient, sent };
}

/** Pages keyed by the position the request carries (none for the first page). */
function pages(byPosition: Record<string, { items: unknown[]; position?: string }>): Answer {
  return (input) => {
    const page = byPosition[(input.position as string | undefined) ?? 'first'];
    if (!page) throw new Error(`no page at ${String(input.position)}`);
    return page;
  };
}

function notFound(message: string): never {
  throw Object.assign(new Error(message), { name: 'NotFoundException' });
}

const stageFound: Answer = () => ({ stageName: 'prod' });
const acmePlan = (id: string, apiId: string, extra: Input = {}) => ({
  id,
  name: 'sis-acme-default',
  tags: { 'sis:tenant': 'acme' },
  apiStages: [{ apiId, stage: 'prod' }],
  throttle: { rateLimit: 50, burstLimit: 100 },
  ...extra,
});

const request = { tenant: 'acme', region: 'eu-west-1' };

describe('API Gateway discovery for sis admin bootstrap --aws', () => {
  it('pages through REST APIs and usage plans and takes only the exact names, tag and stage', async () => {
    const { client, sent } = fakeApiGateway({
      GetRestApisCommand: pages({
        first: {
          items: [
            { id: 'a1', name: 'sis-acme-old' },
            { id: 'a2', name: 'SIS-ACME' },
            { id: 'a3', name: 'sis-acmex' },
            { id: 'b1', name: 'sis-beta' },
          ],
          position: 'r2',
        },
        r2: { items: [{ id: 'api-acme', name: 'sis-acme' }] },
      }),
      GetStageCommand: stageFound,
      GetUsagePlansCommand: pages({
        first: {
          items: [
            acmePlan('wrong-tag', 'api-acme', { tags: { 'sis:tenant': 'beta' } }),
            acmePlan('untagged', 'api-acme', { tags: undefined }),
            acmePlan('other-stage', 'api-acme', { apiStages: [{ apiId: 'api-acme', stage: 'dev' }] }),
            acmePlan('other-api', 'a1'),
            { ...acmePlan('other-name', 'api-acme'), name: 'sis-acme-bbbbbbbbbbbbbbbb' },
          ],
          position: 'u2',
        },
        u2: { items: [acmePlan('plan-acme', 'api-acme', { quota: { limit: 5000, period: 'DAY' } })] },
      }),
    });
    const found = await discoverApiGateway(client, request);
    expect(found).toEqual({
      restApiId: 'api-acme',
      stageName: 'prod',
      usagePlanId: 'plan-acme',
      defaultLimits: { ratePerSecond: 50, burst: 100, dailyQuota: 5000 },
      discovered: ['stageName', 'restApiId', 'usagePlanId'],
    });
    expect(sent).toEqual([
      { command: 'GetRestApisCommand', input: { limit: PAGE_LIMIT } },
      { command: 'GetRestApisCommand', input: { limit: PAGE_LIMIT, position: 'r2' } },
      { command: 'GetStageCommand', input: { restApiId: 'api-acme', stageName: 'prod' } },
      { command: 'GetUsagePlansCommand', input: { limit: PAGE_LIMIT } },
      { command: 'GetUsagePlansCommand', input: { limit: PAGE_LIMIT, position: 'u2' } },
    ]);
    expect(PAGE_LIMIT).toBe(500);
  });

  it('says which tenant, name and region had no REST API, and how to fix it', async () => {
    const { client, sent } = fakeApiGateway({
      GetRestApisCommand: pages({ first: { items: [{ id: 'x', name: 'sis-beta' }] } }),
    });
    const failure = discoverApiGateway(client, request);
    await expect(failure).rejects.toThrow(ApiDiscoveryError);
    await expect(failure).rejects.toThrow(
      /No REST API named "sis-acme" found in eu-west-1\. Is the stack of tenant acme deployed in eu-west-1\?.*SIS_REST_API_ID/,
    );
    expect(sent.map((s) => s.command)).toEqual(['GetRestApisCommand']);
  });

  it('picks, among REST APIs sharing the name, the one the tenant default plan is attached to', async () => {
    const { client, sent } = fakeApiGateway({
      GetRestApisCommand: pages({
        first: {
          items: [
            { id: 'stale', name: 'sis-acme' },
            { id: 'live', name: 'sis-acme' },
          ],
        },
      }),
      GetStageCommand: stageFound,
      GetUsagePlansCommand: pages({ first: { items: [acmePlan('plan-live', 'live')] } }),
    });
    const found = await discoverApiGateway(client, request);
    expect(found).toMatchObject({ restApiId: 'live', usagePlanId: 'plan-live' });
    // The plans are listed once, for the choice of API and for the plan itself.
    expect(sent.map((s) => s.command)).toEqual([
      'GetRestApisCommand',
      'GetUsagePlansCommand',
      'GetStageCommand',
    ]);
  });

  it.each([
    ['none', []],
    ['both', [acmePlan('p1', 'one'), acmePlan('p2', 'two')]],
  ])('refuses to guess between REST APIs sharing the name when %s carry the plan', async (_, plans) => {
    const { client, sent } = fakeApiGateway({
      GetRestApisCommand: pages({
        first: {
          items: [
            { id: 'one', name: 'sis-acme' },
            { id: 'two', name: 'sis-acme' },
          ],
        },
      }),
      GetUsagePlansCommand: pages({ first: { items: plans } }),
    });
    await expect(discoverApiGateway(client, request)).rejects.toThrow(
      /2 REST APIs are named "sis-acme" in eu-west-1 \(one, two\).*Set SIS_REST_API_ID/,
    );
    expect(sent.map((s) => s.command)).not.toContain('GetStageCommand');
  });

  it('reports a missing stage with the REST API, tenant and region', async () => {
    const { client } = fakeApiGateway({
      GetRestApisCommand: pages({ first: { items: [{ id: 'api-acme', name: 'sis-acme' }] } }),
      GetStageCommand: () => notFound('Invalid stage identifier specified'),
    });
    await expect(discoverApiGateway(client, request)).rejects.toThrow(
      /REST API api-acme of tenant acme has no stage "prod" in eu-west-1\. Is the stack/,
    );
  });

  it('reports a missing default plan, and refuses to choose between two', async () => {
    const answers = (plans: unknown[]) =>
      fakeApiGateway({
        GetRestApisCommand: pages({ first: { items: [{ id: 'api-acme', name: 'sis-acme' }] } }),
        GetStageCommand: stageFound,
        GetUsagePlansCommand: pages({ first: { items: plans } }),
      }).client;
    await expect(discoverApiGateway(answers([acmePlan('elsewhere', 'other-api')]), request)).rejects.toThrow(
      /No usage plan matches: named "sis-acme-default", tagged sis:tenant=acme and attached to stage prod of REST API api-acme in eu-west-1\. Is the stack/,
    );
    await expect(
      discoverApiGateway(answers([acmePlan('p1', 'api-acme'), acmePlan('p2', 'api-acme')]), request),
    ).rejects.toThrow(/2 usage plans \(p1, p2\) match.*Set SIS_USAGE_PLAN_ID/);
  });

  it('lets explicit IDs win: nothing listed, the given plan read for its limits', async () => {
    const { client, sent } = fakeApiGateway({
      GetUsagePlanCommand: () =>
        acmePlan('plan-x', 'api-x', {
          quota: { limit: 7, period: 'WEEK' },
          throttle: { rateLimit: 2.5, burstLimit: 5 },
        }),
    });
    const found = await discoverApiGateway(client, {
      ...request,
      known: { restApiId: 'api-x', stageName: 'live', usagePlanId: 'plan-x' },
    });
    expect(found).toEqual({
      restApiId: 'api-x',
      stageName: 'live',
      usagePlanId: 'plan-x',
      // Key records hold daily quotas only; a weekly one is not mirrored.
      defaultLimits: { ratePerSecond: 2.5, burst: 5 },
      discovered: [],
    });
    expect(sent).toEqual([{ command: 'GetUsagePlanCommand', input: { usagePlanId: 'plan-x' } }]);
  });

  it('discovers only what is missing: a given REST API is checked for the stage, then its plan found', async () => {
    const { client, sent } = fakeApiGateway({
      GetStageCommand: stageFound,
      GetUsagePlansCommand: pages({ first: { items: [acmePlan('plan-given-api', 'given')] } }),
    });
    const found = await discoverApiGateway(client, { ...request, known: { restApiId: 'given' } });
    expect(found).toMatchObject({ restApiId: 'given', usagePlanId: 'plan-given-api' });
    expect(sent).toEqual([
      { command: 'GetStageCommand', input: { restApiId: 'given', stageName: 'prod' } },
      { command: 'GetUsagePlansCommand', input: { limit: PAGE_LIMIT } },
    ]);
  });

  it('names an explicit usage plan that does not exist', async () => {
    const { client } = fakeApiGateway({ GetUsagePlanCommand: () => notFound('Invalid Usage Plan ID') });
    await expect(
      discoverApiGateway(client, {
        ...request,
        known: { restApiId: 'a', stageName: 'prod', usagePlanId: 'gone' },
      }),
    ).rejects.toThrow(/Usage plan gone \(SIS_USAGE_PLAN_ID\) of tenant acme not found in eu-west-1/);
  });

  it('wraps SDK failures (credentials, permissions) with the operation, tenant and region', async () => {
    const { client } = fakeApiGateway({
      GetRestApisCommand: () => {
        throw Object.assign(new Error('User is not authorized to perform: apigateway:GET'), {
          name: 'AccessDeniedException',
        });
      },
    });
    await expect(discoverApiGateway(client, request)).rejects.toThrow(
      'Could not look up the API Gateway of tenant acme in eu-west-1 (GetRestApis): AccessDeniedException: User is not authorized to perform: apigateway:GET',
    );
  });

  it('stops when API Gateway hands back a page position twice', async () => {
    const { client, sent } = fakeApiGateway({
      GetRestApisCommand: () => ({ items: [], position: 'same' }),
    });
    await expect(discoverApiGateway(client, request)).rejects.toThrow(/page position same twice/);
    expect(sent).toHaveLength(2);
  });
});

describe('bootstrap configuration on AWS', () => {
  const deployed = () =>
    fakeApiGateway({
      GetRestApisCommand: pages({ first: { items: [{ id: 'api-acme', name: 'sis-acme' }] } }),
      GetStageCommand: stageFound,
      GetUsagePlansCommand: pages({
        first: { items: [acmePlan('plan-acme', 'api-acme', { quota: { limit: 5000, period: 'DAY' } })] },
      }),
      CreateApiKeyCommand: (input) => ({ id: 'apigw-key-1', value: input.value }),
      CreateUsagePlanKeyCommand: () => ({}),
    });

  it('fills the IDs and the default plan limits, and the key then joins that plan', async () => {
    const { client, sent } = deployed();
    const cfg = parseConfig({ SIS_TENANT: 'acme', AWS_REGION: 'eu-west-1' });
    const { config, summary } = await withApiGateway(cfg, 'acme', client);
    expect(config).toMatchObject({
      SIS_REST_API_ID: 'api-acme',
      SIS_STAGE_NAME: 'prod',
      SIS_USAGE_PLAN_ID: 'plan-acme',
      SIS_DEFAULT_RATE_PER_SECOND: 50,
      SIS_DEFAULT_BURST: 100,
      SIS_DEFAULT_DAILY_QUOTA: 5000,
    });
    expect(summary).toBe(
      'API Gateway of tenant acme in eu-west-1: REST API api-acme, stage prod, usage plan plan-acme (50/s, burst 100, 5000 per day); found by name: stageName, restApiId, usagePlanId.',
    );

    // The key service built from this configuration registers a key without own limits in the plan.
    const limits = defaultRateLimitFromConfig(config);
    expect(limits).toEqual({ rate_per_second: 50, burst: 100, daily_quota: 5000 });
    sent.length = 0;
    const identity = await usagePlansFromConfig(config, client).register({
      key_id: 'aaaaaaaaaaaaaaaa',
      rate_limit: limits,
    });
    expect(sent.map((s) => s.command)).toEqual(['CreateApiKeyCommand', 'CreateUsagePlanKeyCommand']);
    expect(sent[1]?.input).toEqual({ usagePlanId: 'plan-acme', keyId: 'apigw-key-1', keyType: 'API_KEY' });
    expect(identity?.usage_plan_id).toBe('plan-acme');
  });

  it('keeps the operator limits when any SIS_DEFAULT_* is set', async () => {
    const { client } = deployed();
    const cfg = parseConfig({ SIS_TENANT: 'acme', AWS_REGION: 'eu-west-1', SIS_DEFAULT_BURST: '30' });
    const { config } = await withApiGateway(cfg, 'acme', client);
    expect(config.SIS_DEFAULT_BURST).toBe(30);
    expect(config.SIS_DEFAULT_RATE_PER_SECOND).toBeUndefined();
    expect(config.SIS_DEFAULT_DAILY_QUOTA).toBeUndefined();
    expect(config.SIS_USAGE_PLAN_ID).toBe('plan-acme');
  });

  it('asks nothing of API Gateway when every ID and limit is given', async () => {
    const { client, sent } = deployed();
    const cfg = parseConfig({
      SIS_TENANT: 'acme',
      SIS_REST_API_ID: 'r',
      SIS_STAGE_NAME: 's',
      SIS_USAGE_PLAN_ID: 'p',
      SIS_DEFAULT_RATE_PER_SECOND: '10',
    });
    const { config } = await withApiGateway(cfg, 'acme', client);
    expect(config).toBe(cfg);
    expect(sent).toEqual([]);
  });

  it('needs the tenant, which also tags the API Gateway key', async () => {
    const { client, sent } = deployed();
    await expect(withApiGateway(parseConfig({}), undefined, client)).rejects.toThrow(
      /pass --tenant <tenant> \(or set SIS_TENANT\)/,
    );
    expect(sent).toEqual([]);
  });
});
