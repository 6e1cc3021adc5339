import { describe, expect, it } from 'vitest';
import { grantsFor } from '../../../infra/function-grants';
import { parseConfig } from '../../../shared/config';
import {
  API_STAGE_NAME,
  defaultUsagePlanName,
  restApiName,
  TENANT_TAG,
} from '../../../shared/platform/api-gateway-names';
import { defaultRateLimitFromConfig } from '../../../shared/platform/usage-plans';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

const LIMIT_VARIABLES = ['SIS_DEFAULT_RATE_PER_SECOND', 'SIS_DEFAULT_BURST', 'SIS_DEFAULT_DAILY_QUOTA'];

function functionEnvironments(t: TemplateJson): Map<string, Record<string, unknown>> {
  return new Map(
    [...resourcesOfType(t, 'AWS::Lambda::Function').values()].map((fn) => [
      String(fn.Properties.FunctionName).replace(/^sis-test-/, ''),
      (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables,
    ]),
  );
}

/** The literal (string) variables of a function, as its configuration would parse them. */
function literalEnv(env: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

describe('default rate limits of key administration', () => {
  const custom = synthTenantStack({
    rateLimitPerSecond: 50,
    burstLimit: 100,
    dailyQuota: 5000,
  }).template.toJSON() as TemplateJson;
  const standard = synthTenantStack().template.toJSON() as TemplateJson;

  it("gives every key-administration function the default plan's limits from the settings, and no other function", () => {
    const environments = functionEnvironments(custom);
    const admins = [...environments.keys()].filter((name) => grantsFor(name).apiKeyAdmin);
    // The console's key administration registers keys the same way, so it takes the same defaults.
    expect(admins.sort()).toEqual([
      'console-create-key',
      'console-disable-key',
      'console-rotate-key',
      'create-api-key',
      'disable-api-key',
      'rotate-api-key',
    ]);
    for (const [name, env] of environments) {
      if (admins.includes(name)) {
        expect(env, name).toMatchObject({
          SIS_DEFAULT_RATE_PER_SECOND: '50',
          SIS_DEFAULT_BURST: '100',
          SIS_DEFAULT_DAILY_QUOTA: '5000',
        });
      } else {
        for (const key of LIMIT_VARIABLES) expect(key in env, `${name} ${key}`).toBe(false);
      }
    }
    const [plan] = resourcesOfType(custom, 'AWS::ApiGateway::UsagePlan').values();
    expect(plan?.Properties.Throttle).toEqual({ RateLimit: 50, BurstLimit: 100 });
    expect(plan?.Properties.Quota).toEqual({ Limit: 5000, Period: 'DAY' });
  });

  it('stores new keys with exactly the limits the default plan enforces', () => {
    for (const t of [custom, standard]) {
      const env = functionEnvironments(t).get('create-api-key') ?? {};
      const [plan] = resourcesOfType(t, 'AWS::ApiGateway::UsagePlan').values();
      const throttle = plan?.Properties.Throttle as { RateLimit: number; BurstLimit: number };
      const quota = plan?.Properties.Quota as { Limit: number } | undefined;
      expect(defaultRateLimitFromConfig(parseConfig(literalEnv(env)))).toEqual({
        rate_per_second: throttle.RateLimit,
        burst: throttle.BurstLimit,
        ...(quota ? { daily_quota: quota.Limit } : {}),
      });
    }
  });

  it('sets no daily quota variable when the deployment has none', () => {
    const env = functionEnvironments(standard).get('create-api-key') ?? {};
    expect(env).toMatchObject({ SIS_DEFAULT_RATE_PER_SECOND: '10', SIS_DEFAULT_BURST: '20' });
    expect('SIS_DEFAULT_DAILY_QUOTA' in env).toBe(false);
  });

  it('names the REST API, stage and default plan as `sis admin bootstrap` looks them up', () => {
    const [api] = resourcesOfType(standard, 'AWS::ApiGateway::RestApi').values();
    expect(api?.Properties.Name).toBe(restApiName('test'));
    const stages = resourcesOfType(standard, 'AWS::ApiGateway::Stage');
    expect([...stages.values()].map((s) => s.Properties.StageName)).toEqual([API_STAGE_NAME]);
    const [plan] = resourcesOfType(standard, 'AWS::ApiGateway::UsagePlan').values();
    expect(plan?.Properties.UsagePlanName).toBe(defaultUsagePlanName('test'));
    expect(plan?.Properties.Tags).toContainEqual({ Key: TENANT_TAG, Value: 'test' });
    expect(((plan?.Properties.ApiStages ?? []) as { Stage: unknown }[]).map((s) => s.Stage)).toEqual([
      { Ref: [...stages.keys()][0] },
    ]);
  });
});
