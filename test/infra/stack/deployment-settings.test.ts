import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { parseTenantSettings, SettingsError } from '../../../infra/settings';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

describe('deployment settings from CDK context', () => {
  it('requires a tenant and says how to pass one', () => {
    expect(() => parseTenantSettings({})).toThrow(SettingsError);
    expect(() => parseTenantSettings({})).toThrow(/tenant.*-c tenant=/);
  });

  it.each(['Acme', 'acme_corp', '-acme', 'a'.repeat(32), ''])('rejects the tenant name %j', (tenant) => {
    expect(() => parseTenantSettings({ tenant })).toThrow(/tenant/);
  });

  it('applies the documented defaults', () => {
    expect(parseTenantSettings({ tenant: 'acme-2' })).toEqual({
      tenant: 'acme-2',
      authorizerCacheTtlSeconds: 0,
      syncWaitSeconds: 25,
      removalPolicy: 'retain',
      logRetentionDays: RetentionDays.ONE_MONTH,
      rateLimitPerSecond: 10,
      burstLimit: 20,
      dailyQuota: 0,
      maxRunningInvestigations: 10,
      consoleRateLimitPerSecond: 20,
      consoleBurstLimit: 40,
      dailyInvestigationQuota: 500,
      enableWaf: false,
      wafRateLimitPerIp: 2000,
      analyst: 'rules',
      intelConnectors: [],
      // The no-key feeds whose terms allow a business's internal use (docs/feeds.md).
      feeds: ['SPAMHAUS_DROP', 'FEODO', 'OPENPHISH', 'TOR_EXITS', 'ET_COMPROMISED', 'TRANCO'],
      dashboard: true,
      debugLogging: false,
      traceSampleRate: 0.005,
      webhookTimeoutSeconds: 15,
      webhookRetrySchedule: '5,60,300,1800,3600,7200,28800',
      webhookAllowLoopback: false,
      autoInvestigate: 'off',
      autoInvestigateDailyQuota: 200,
      sessionRetentionDays: 365,
      incidentRetentionDays: 365,
      graphRetentionDays: 180,
      auditRetentionDays: 2555,
    });
  });

  it('enables the named feeds, none, or refuses an unknown one and keyed ones without the secret', () => {
    expect(parseTenantSettings({ tenant: 'acme', feeds: 'tor_exits, feodo' }).feeds).toEqual([
      'TOR_EXITS',
      'FEODO',
    ]);
    expect(parseTenantSettings({ tenant: 'acme', feeds: 'none' }).feeds).toEqual([]);
    expect(() => parseTenantSettings({ tenant: 'acme', feeds: 'FEODO,NOPE' })).toThrow(/'feeds/);
    expect(() => parseTenantSettings({ tenant: 'acme', feeds: 'URLHAUS' })).toThrow(/intelSecretArn/);
    expect(
      parseTenantSettings({
        tenant: 'acme',
        feeds: 'URLHAUS',
        intelSecretArn: 'arn:aws:secretsmanager:eu-west-1:111111111111:secret:sis-intel-AbCdEf',
      }).feeds,
    ).toEqual(['URLHAUS']);
    expect(
      parseTenantSettings({ tenant: 'acme', feedUrls: '{"TOR_EXITS":"https://mirror.example/tor"}' })
        .feedUrls,
    ).toEqual({ TOR_EXITS: 'https://mirror.example/tor' });
    expect(() =>
      parseTenantSettings({ tenant: 'acme', feedUrls: '{"TOR_EXITS":"http://mirror.example/tor"}' }),
    ).toThrow(/https/);
  });

  it('validates the optional region, domain, alarm, KMS and WAF settings', () => {
    const settings = parseTenantSettings({
      tenant: 'acme',
      region: 'eu-west-1',
      customDomainName: 'sis.example.com',
      customDomainCertificateArn:
        'arn:aws:acm:eu-west-1:111111111111:certificate/0c9a3a57-7b64-4f0e-9d0b-3c5f3c2b1a00',
      alarmEmail: 'soc@example.com',
      kmsKeyArn: 'arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab',
      enableWaf: 'true',
      wafRateLimitPerIp: '500',
      rateLimitPerSecond: '50',
      burstLimit: '100',
      dailyQuota: '100000',
    });
    expect(settings).toMatchObject({
      enableWaf: true,
      wafRateLimitPerIp: 500,
      rateLimitPerSecond: 50,
      dailyQuota: 100000,
    });
    expect(parseTenantSettings({ tenant: 'acme', enableWaf: false }).enableWaf).toBe(false);
    expect(() => parseTenantSettings({ tenant: 'acme', region: 'Europe' })).toThrow(/region/);
    expect(() => parseTenantSettings({ tenant: 'acme', customDomainName: 'sis.example.com' })).toThrow(
      /customDomainName/,
    );
    expect(() => parseTenantSettings({ tenant: 'acme', alarmEmail: 'nobody' })).toThrow(/alarmEmail/);
    expect(() => parseTenantSettings({ tenant: 'acme', kmsKeyArn: 'alias/aws/dynamodb' })).toThrow(
      /kmsKeyArn/,
    );
    expect(() => parseTenantSettings({ tenant: 'acme', enableWaf: 'yes' })).toThrow(/enableWaf/);
    expect(() => parseTenantSettings({ tenant: 'acme', wafRateLimitPerIp: '5' })).toThrow(
      /wafRateLimitPerIp/,
    );
    expect(() => parseTenantSettings({ tenant: 'acme', burstLimit: '0' })).toThrow(/burstLimit/);
  });

  it('accepts CLI strings for numbers and validates them', () => {
    const settings = parseTenantSettings({
      tenant: 'acme',
      publicUrl: 'https://sis.example.com',
      authorizerCacheTtlSeconds: '300',
      syncWaitSeconds: '20',
      removalPolicy: 'destroy',
      logRetentionDays: '7',
    });
    expect(settings).toMatchObject({
      authorizerCacheTtlSeconds: 300,
      syncWaitSeconds: 20,
      logRetentionDays: 7,
    });
    expect(() => parseTenantSettings({ tenant: 'acme', logRetentionDays: '8' })).toThrow(/logRetentionDays/);
    expect(() => parseTenantSettings({ tenant: 'acme', authorizerCacheTtlSeconds: '3601' })).toThrow(
      /authorizerCacheTtlSeconds/,
    );
    expect(() => parseTenantSettings({ tenant: 'acme', syncWaitSeconds: '29' })).toThrow(/syncWaitSeconds/);
    expect(() => parseTenantSettings({ tenant: 'acme', removalPolicy: 'snapshot' })).toThrow(/removalPolicy/);
    expect(() => parseTenantSettings({ tenant: 'acme', publicUrl: 'not a url' })).toThrow(/publicUrl/);
  });
});

describe('settings applied to the stack', () => {
  const { template } = synthTenantStack({
    tenant: 'beta',
    publicUrl: 'https://sis.example.com',
    authorizerCacheTtlSeconds: 300,
    syncWaitSeconds: 20,
    debugLogging: 'true',
    traceSampleRate: '0',
    removalPolicy: 'destroy',
    logRetentionDays: 7,
  });
  const t = template.toJSON() as TemplateJson;

  it('names the stack, tables and functions after the tenant', () => {
    for (const table of resourcesOfType(t, 'AWS::DynamoDB::Table').values()) {
      expect(table.Properties.TableName).toMatch(/^sis-beta-/);
      expect(table.DeletionPolicy).toBe('Delete');
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    }
    for (const fn of resourcesOfType(t, 'AWS::Lambda::Function').values()) {
      expect(fn.Properties.FunctionName).toMatch(/^sis-beta-/);
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env).toMatchObject({
        SIS_TENANT: 'beta',
        SIS_PUBLIC_URL: 'https://sis.example.com',
        SIS_SYNC_WAIT_SECONDS: '20',
        SIS_AUTHORIZER_CACHE_TTL_SECONDS: '300',
      });
    }
  });

  it("hands the operator's legal URL and contact address to the functions that publish them", () => {
    const { template: withTerms } = synthTenantStack({
      tenant: 'gamma',
      legalUrl: 'https://contoso.example/terms',
      contactEmail: 'soc@contoso.example',
    });
    const fns = [...resourcesOfType(withTerms.toJSON() as TemplateJson, 'AWS::Lambda::Function').values()];
    const envOf = (name: string) => {
      const fn = fns.find((f) => f.Properties.FunctionName === `sis-gamma-${name}`);
      return (fn?.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    };
    for (const name of ['get-ai-plugin-manifest', 'get-terms-page', 'get-security-copilot-manifest']) {
      expect(envOf(name), name).toMatchObject({
        SIS_LEGAL_URL: 'https://contoso.example/terms',
        SIS_CONTACT_EMAIL: 'soc@contoso.example',
      });
    }
    expect(() => parseTenantSettings({ tenant: 'acme', legalUrl: 'http://contoso.example/terms' })).toThrow(
      /legalUrl/,
    );
  });

  it('with debugLogging, logs every platform record, DEBUG line and execution event; traceSampleRate 0 traces nothing', () => {
    for (const fn of resourcesOfType(t, 'AWS::Lambda::Function').values()) {
      expect(fn.Properties.LoggingConfig, String(fn.Properties.FunctionName)).toMatchObject({
        LogFormat: 'JSON',
        SystemLogLevel: 'INFO',
        ApplicationLogLevel: 'DEBUG',
      });
      expect((fn.Properties.TracingConfig as { Mode?: string } | undefined)?.Mode ?? 'Disabled').toBe(
        'Disabled',
      );
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.NODE_OPTIONS, 'stack traces mapped through the source map').toBe('--enable-source-maps');
    }
    const [machine] = resourcesOfType(t, 'AWS::StepFunctions::StateMachine').values();
    expect(machine?.Properties.LoggingConfiguration).toMatchObject({
      Level: 'ALL',
      IncludeExecutionData: true,
    });
    expect(
      (machine?.Properties.TracingConfiguration as { Enabled?: boolean } | undefined)?.Enabled ?? false,
    ).toBe(false);
    const [stage] = resourcesOfType(t, 'AWS::ApiGateway::Stage').values();
    expect(stage?.Properties.TracingEnabled ?? false).toBe(false);
    expect(resourcesOfType(t, 'AWS::XRay::SamplingRule').size).toBe(0);
    expect(() => parseTenantSettings({ tenant: 'acme', traceSampleRate: '1.5' })).toThrow(/traceSampleRate/);
  });

  it('keeps logs for the configured days', () => {
    for (const group of resourcesOfType(t, 'AWS::Logs::LogGroup').values()) {
      expect(group.Properties.RetentionInDays).toBe(7);
      expect(group.DeletionPolicy).toBe('Delete');
    }
  });

  it('with caching on, keys the authorizer cache on X-API-Key (Bearer then needs caching off)', () => {
    const [authorizer] = resourcesOfType(t, 'AWS::ApiGateway::Authorizer').values();
    expect(authorizer?.Properties.AuthorizerResultTtlInSeconds).toBe(300);
    expect(authorizer?.Properties.IdentitySource).toBe('method.request.header.X-API-Key');
  });
});
