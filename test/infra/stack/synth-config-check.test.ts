import { describe, expect, it } from 'vitest';
import { buildTenantApp } from '../../../infra/build-app';
import { deployTimeValue, functionConfigProblem } from '../../../infra/function-config';
import { cdkJsonContext, resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * Issue #27 item 5: every function's own configuration check (shared/config.ts) runs over its
 * environment at synth time, so a setting a function would reject at cold start fails `cdk synth`
 * naming it; and MISP is deployable (`intelMispUrl`, https only).
 */
const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sis/acme/intel-AbCdEf';

function environments(template: TemplateJson): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  for (const fn of resourcesOfType(template, 'AWS::Lambda::Function').values()) {
    const name = String(fn.Properties.FunctionName);
    found.set(name, (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables);
  }
  return found;
}

/** The context flag combinations docs/deploy.md, docs/intel.md, docs/analyst.md and docs/incidents.md show. */
const DOCUMENTED_COMBINATIONS: Record<string, Record<string, string>> = {
  'tenant only': {},
  'alarm email, WAF, destroy, debug logging': {
    alarmEmail: 'soc@example.com',
    enableWaf: 'true',
    removalPolicy: 'destroy',
    debugLogging: 'true',
  },
  'bedrock analyst with guardrail and budgets': {
    analyst: 'bedrock',
    bedrockModelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
    bedrockGuardrailId: 'abc123guard',
    bedrockGuardrailVersion: '3',
    analystMaxTurns: '4',
    analystMaxToolCalls: '6',
    analystMaxTokens: '40000',
    analystMaxSeconds: '120',
  },
  'intel connectors and internal suffixes': {
    intelSecretArn: SECRET,
    intelConnectors: 'abuseipdb,crowdsec,internetdb',
    internalSuffixes: 'corp.example.com',
  },
  'MISP with its URL': {
    intelSecretArn: SECRET,
    intelConnectors: 'misp',
    intelMispUrl: 'https://misp.example.com',
  },
  'Splunk pull': {
    siemSplunkUrl: 'https://splunk.example.com:8089',
    siemSplunkSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sis/acme/splunk-AbCdEf',
  },
  'region, custom domain, KMS, legal page': {
    region: 'eu-west-1',
    customDomainName: 'sis.example.com',
    customDomainCertificateArn:
      'arn:aws:acm:eu-west-1:111111111111:certificate/0c9a3a57-7b64-4f0e-9d0b-3c5f3c2b1a00',
    kmsKeyArn: 'arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab',
    legalUrl: 'https://example.com/terms',
    contactEmail: 'soc@example.com',
    logRetentionDays: '90',
  },
};

describe('cdk synth runs the functions’ own configuration check', () => {
  it.each(Object.entries(DOCUMENTED_COMBINATIONS))(
    'synthesises with %s, every function starting',
    (_, context) => {
      const { template } = synthTenantStack(context);
      const envs = environments(template.toJSON() as TemplateJson);
      expect(envs.size).toBeGreaterThan(20);
      for (const [name, env] of envs) expect([name, functionConfigProblem(env)]).toEqual([name, undefined]);
    },
  );

  it('tells the functions that plan and run MISP lookups where the tenant’s server is', () => {
    const { template } = synthTenantStack(DOCUMENTED_COMBINATIONS['MISP with its URL']!);
    const envs = environments(template.toJSON() as TemplateJson);
    for (const name of ['step-mark-active', 'step-run-intel', 'list-connectors']) {
      expect(envs.get(`sis-test-${name}`)).toMatchObject({
        SIS_INTEL_MISP_ENABLED: 'true',
        SIS_INTEL_MISP_URL: 'https://misp.example.com',
      });
    }
  });

  it('tells the push endpoint which SIEMs are pulled, so it refuses pushes of their incidents', () => {
    const { template } = synthTenantStack(DOCUMENTED_COMBINATIONS['Splunk pull']!);
    const ingest = environments(template.toJSON() as TemplateJson).get('sis-test-ingest-incidents');
    expect(ingest).toMatchObject({ SIS_SIEM_SPLUNK_URL: 'https://splunk.example.com:8089' });
    expect(Object.keys(ingest ?? {}).filter((key) => key.endsWith('_SECRET_ARN'))).toEqual([]);
  });

  it.each([
    ['without intelMispUrl', {}, /intelMispUrl.*required/],
    ['with an http:// intelMispUrl', { intelMispUrl: 'http://misp.example.com' }, /intelMispUrl.*https/],
  ])('refuses MISP %s', (_, extra, message) => {
    expect(() => synthTenantStack({ intelSecretArn: SECRET, intelConnectors: 'misp', ...extra })).toThrow(
      message,
    );
  });

  it('fails the synth when a function would reject its environment, naming the variable', () => {
    const { app, stack } = buildTenantApp({
      context: { ...cdkJsonContext(), tenant: 'test', 'aws:cdk:bundling-stacks': [] },
    });
    stack.workflow.intelConnectorSteps[0]!.fn.addEnvironment('SIS_INTEL_TIMEOUT_MS', '5');
    expect(() => app.synth()).toThrow(/would refuse to start: .*SIS_INTEL_TIMEOUT_MS/);
  });

  it('names the deployment setting behind a refused variable', () => {
    expect(functionConfigProblem({ SIS_INTEL_MISP_ENABLED: 'true', SIS_INTEL_SECRET_ARN: SECRET })).toMatch(
      /SIS_INTEL_MISP_URL.*deployment setting intelMispUrl/,
    );
    expect(functionConfigProblem({ SIS_SYNC_WAIT_SECONDS: '0' })).toMatch(/setting syncWaitSeconds/);
  });

  it('reads deploy-time values as placeholders of the same shape', () => {
    const url = {
      'Fn::Join': ['', ['https://', { Ref: 'Api' }, '.execute-api.', { Ref: 'AWS::Region' }, '/prod/']],
    };
    expect(new URL(deployTimeValue(url)).pathname).toBe('/prod/');
    expect(functionConfigProblem({ SIS_PUBLIC_URL: url, SIS_KEYS_TABLE: { Ref: 'Keys' } })).toBeUndefined();
  });
});
