import { LONGEST_NAME, MAX_TENANT_LENGTH } from '../../infra/naming';
import { FEED_NAMES } from '../../shared/domain/feeds/names';
import { CONNECTOR_NAMES } from '../../shared/domain/intel/names';

/**
 * The setting combinations `npm run check:deploy` synthesises: every configuration docs/deploy.md and
 * infra/settings.ts document, and the edge values the settings accept. Context keys are the real ones
 * (infra/settings.ts); ARNs name a placeholder account. Values AWS would refuse are refused by the
 * settings at synth (test/unit/settings/deploy-refusal-settings.test.ts), so they are not combinations here.
 */
const ACCOUNT = '123456789012';
const INTEL_SECRET = `arn:aws:secretsmanager:eu-west-1:${ACCOUNT}:secret:sis-acme-intel-AbCdEf`;
const INTEL_ALL = {
  intelSecretArn: INTEL_SECRET,
  intelConnectors: CONNECTOR_NAMES.join(','),
  intelMispUrl: 'https://misp.example.com',
  feeds: FEED_NAMES.join(','),
};
const CUSTOM_DOMAIN_KMS = {
  customDomainName: 'sis.example.com',
  customDomainCertificateArn: `arn:aws:acm:eu-west-1:${ACCOUNT}:certificate/11111111-2222-3333-4444-555555555555`,
  kmsKeyArn: `arn:aws:kms:eu-west-1:${ACCOUNT}:key/11111111-2222-3333-4444-555555555555`,
};
const OIDC = {
  consoleIdentityProvider: JSON.stringify({
    type: 'oidc',
    name: 'EntraID',
    issuerUrl: 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0',
    clientId: 'sis-console',
    clientSecretArn: `arn:aws:secretsmanager:eu-west-1:${ACCOUNT}:secret:sis-acme-oidc-AbCdEf`,
  }),
};

/** The longest tenant the settings accept (derived from the longest generated name). */
const LONGEST_TENANT = 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz'.slice(
  0,
  MAX_TENANT_LENGTH,
);

export interface Combination {
  name: string;
  /** What it covers, for the report. */
  covers: string;
  context: Record<string, string>;
}

export const COMBINATIONS: readonly Combination[] = [
  { name: 'default', covers: 'no settings but the tenant', context: {} },
  {
    name: 'bedrock-profile',
    covers: 'analyst=bedrock with a cross-region inference profile',
    context: { analyst: 'bedrock', bedrockModelId: 'us.anthropic.claude-3-7-sonnet-20250219-v1:0' },
  },
  {
    name: 'bedrock-model',
    covers: 'analyst=bedrock with a plain foundation-model id, guardrail and token budget',
    context: {
      analyst: 'bedrock',
      bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      bedrockGuardrailId: 'abcdef123456',
      bedrockGuardrailVersion: '1',
      bedrockMonthlyTokenBudget: '5000000',
    },
  },
  { name: 'intel-all', covers: 'every intel connector, MISP and every feed', context: INTEL_ALL },
  { name: 'console-oidc', covers: 'console federation through OIDC', context: OIDC },
  {
    name: 'console-saml',
    covers: 'console federation through SAML',
    context: {
      consoleIdentityProvider: JSON.stringify({
        type: 'saml',
        name: 'Okta',
        metadataUrl: 'https://example.okta.com/app/sis/sso/saml/metadata',
      }),
    },
  },
  { name: 'waf', covers: 'enableWaf=true', context: { enableWaf: 'true', wafRateLimitPerIp: '100' } },
  { name: 'domain-kms', covers: 'custom domain and customer-managed KMS key', context: CUSTOM_DOMAIN_KMS },
  {
    name: 'lean',
    covers: 'no dashboard, no tracing, no feeds, removalPolicy=destroy',
    context: { dashboard: 'false', traceSampleRate: '0', feeds: 'none', removalPolicy: 'destroy' },
  },
  {
    name: 'tenant-longest',
    covers: `the longest tenant the settings accept (${MAX_TENANT_LENGTH} characters, from ${LONGEST_NAME.name})`,
    context: { tenant: LONGEST_TENANT },
  },
  {
    name: 'tenant-with-aws',
    covers: 'a tenant containing "aws" (lawson) with the consoleDomainPrefix it then needs',
    context: { tenant: 'lawson', consoleDomainPrefix: 'sis-lwsn-console' },
  },
  {
    name: 'region-pinned',
    covers: '-c region=eu-west-1 with a Bedrock inference profile',
    context: {
      region: 'eu-west-1',
      analyst: 'bedrock',
      bedrockModelId: 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
    },
  },
  {
    name: 'public-url-localhost',
    covers: '-c publicUrl=http://localhost:… (the one http base Cognito accepts)',
    context: { publicUrl: 'http://localhost:8080' },
  },
  {
    name: 'everything',
    covers:
      'every optional feature on at once, the longest tenant, a pinned region with a Bedrock inference profile',
    context: {
      ...INTEL_ALL,
      ...CUSTOM_DOMAIN_KMS,
      ...OIDC,
      tenant: LONGEST_TENANT,
      region: 'eu-west-1',
      analyst: 'bedrock',
      bedrockModelId: 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
      bedrockMonthlyTokenBudget: '5000000',
      enableWaf: 'true',
      debugLogging: 'true',
      alarmEmail: 'soc@example.com',
      legalUrl: 'https://example.com/terms',
      contactEmail: 'soc@example.com',
    },
  },
];

/** The subset `npm test` runs (test/infra/deploy/deploy-check.test.ts): the default stack and this one. */
export const EVERYTHING = COMBINATIONS.find((c) => c.name === 'everything') as Combination;
