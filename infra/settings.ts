import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { z } from 'zod';
import { ANALYST_MODES } from '../shared/domain/analyst/modes';
import { FEED_NAMES } from '../shared/domain/feeds/names';
import { FEED_SOURCES } from '../shared/domain/feeds/sources';
import { CONNECTOR_NAMES, KEYLESS_CONNECTORS } from '../shared/domain/intel/names';
import { TELEMETRY_DEFAULTS } from './telemetry';

/**
 * The per-tenant deployment settings, read from CDK context (`-c tenant=acme` or cdk.json). A wrong
 * value stops synthesis with a message naming the setting, before any resource is built.
 */
/** `-c enableWaf=true` arrives as a string; cdk.json may hold a real boolean. */
const contextBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((value) => value === 'true'),
]);

const RETENTION_DAYS = new Set<number>(
  Object.values(RetentionDays).filter((value): value is number => typeof value === 'number'),
);

/**
 * The tenant's own identity provider for the web console (docs/console.md), as a JSON object in
 * cdk.json or `-c consoleIdentityProvider='{...}'`: OIDC (e.g. Entra ID) with the client secret in
 * Secrets Manager, or SAML with its metadata URL. People arriving through it are then put in the
 * `analysts` or `admins` group.
 */
const identityProviderName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, _ or -');
export const consoleIdentityProviderSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('oidc'),
    name: identityProviderName,
    issuerUrl: z.url({ protocol: /^https$/ }),
    clientId: z.string().min(1).max(256),
    clientSecretArn: z.string().regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/),
  }),
  z.object({
    type: z.literal('saml'),
    name: identityProviderName,
    metadataUrl: z.url({ protocol: /^https$/ }),
  }),
]);
export type ConsoleIdentityProviderSetting = z.infer<typeof consoleIdentityProviderSchema>;

const jsonContext = (value: unknown) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/** The feeds enabled unless the tenant says otherwise: no key needed, terms allowing business use. */
export const DEFAULT_FEEDS = FEED_NAMES.filter((name) => FEED_SOURCES[name].enabledByDefault);

export const tenantSettingsSchema = z
  .object({
    tenant: z
      .string({ error: 'is required: pass -c tenant=<name> (lowercase letters, digits and dashes)' })
      .regex(
        /^[a-z0-9][a-z0-9-]{0,30}$/,
        'must be 1-31 lowercase letters, digits or dashes, starting with a letter or digit',
      ),
    /**
     * Region to deploy to. Unset: the template stays environment-agnostic and the deploying credentials'
     * region (AWS_REGION / profile) decides.
     */
    region: z
      .string()
      .regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'must be an AWS region code such as eu-west-1')
      .optional(),
    publicUrl: z.url().optional(),
    /**
     * The operator's own terms page for the plugin manifests' `legal_info_url` (SIS_LEGAL_URL); it
     * must answer 200 without credentials. Unset: the service's own `/legal` page.
     */
    legalUrl: z.url({ protocol: /^https$/, error: 'must be an https URL' }).optional(),
    /** Contact address in the plugin manifests and on the terms page (SIS_CONTACT_EMAIL). */
    contactEmail: z.email().optional(),
    /** A custom domain for the API (regional endpoint, TLS 1.2); needs the certificate in the same region. */
    customDomainName: z
      .string()
      .regex(
        /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'must be a lowercase DNS name',
      )
      .optional(),
    customDomainCertificateArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/,
        'must be an ACM certificate ARN',
      )
      .optional(),
    /** Alarm notifications go to an SNS topic; with an address, the topic gets an email subscription. */
    alarmEmail: z.email().optional(),
    /**
     * The tenant's CloudWatch dashboard. An account's first three dashboards are free, each further
     * one $3/month: an account with many tenants can turn it off (`-c dashboard=false`) and keep one
     * dashboard of its own across them. Alarms do not depend on it.
     */
    dashboard: contextBoolean.default(true),
    /**
     * Log every invocation's Lambda platform records and DEBUG lines, and every execution event of
     * every run (infra/telemetry.ts). Off: routine success logs almost nothing, failures stay in full.
     */
    debugLogging: contextBoolean.default(TELEMETRY_DEFAULTS.debugLogging),
    /** Share of API requests X-Ray traces, by the tenant's sampling rule; 0 turns tracing off. */
    traceSampleRate: z.coerce.number().min(0).max(1).default(TELEMETRY_DEFAULTS.traceSampleRate),
    authorizerCacheTtlSeconds: z.coerce.number().int().min(0).max(3600).default(0),
    // API Gateway ends an integration after 29 s; the synchronous start must answer before that.
    syncWaitSeconds: z.coerce.number().int().min(1).max(27).default(25),
    removalPolicy: z.enum(['retain', 'destroy']).default('retain'),
    logRetentionDays: z.coerce
      .number()
      .int()
      .refine((days) => RETENTION_DAYS.has(days), {
        error: `must be one of ${[...RETENTION_DAYS].sort((a, b) => a - b).join(', ')}`,
      })
      .default(30)
      .transform((days) => days as RetentionDays),
    /** The default usage plan's per-key limits (API Gateway token bucket; quota per UTC day, 0 = none). */
    rateLimitPerSecond: z.coerce.number().positive().max(10_000).default(10),
    burstLimit: z.coerce.number().int().min(1).max(5_000).default(20),
    dailyQuota: z.coerce.number().int().min(0).max(100_000_000).default(0),
    /** A customer-managed KMS key for the tables (same region); unset: AWS owned keys, no KMS charges. */
    kmsKeyArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[0-9a-f-]{36}$/,
        'must be a KMS key ARN (not an alias)',
      )
      .optional(),
    /**
     * Threat-intelligence connectors (docs/intel.md): the tenant's Secrets Manager secret holding the
     * connectors' keys as JSON {"ABUSEIPDB": "<key>", ...} (created by the operator; only the run-tool
     * step may read it), and which connectors to use, comma-separated (`abuseipdb,crowdsec,internetdb`).
     * Unset: no connector is ever called.
     */
    intelSecretArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/,
        'must be a full Secrets Manager secret ARN',
      )
      .optional(),
    intelConnectors: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(CONNECTOR_NAMES)))
      .default([]),
    /**
     * Public threat feeds (docs/feeds.md) the tenant enables, comma-separated names
     * (`-c feeds=SPAMHAUS_DROP,FEODO,TOR_EXITS`), or `none`. Default: the feeds that need no key and
     * whose terms allow a business's internal use (DEFAULT_FEEDS). URLHAUS and THREATFOX need the
     * abuse.ch Auth-Key in intelSecretArn (keys URLHAUS, THREATFOX).
     */
    feeds: z
      .string()
      .transform((value) =>
        value.trim().toLowerCase() === 'none'
          ? []
          : value
              .split(',')
              .map((name) => name.trim().toUpperCase())
              .filter(Boolean),
      )
      .pipe(z.array(z.enum(FEED_NAMES)))
      .default([...DEFAULT_FEEDS]),
    /** Per-feed source URL overrides, JSON `{"TOR_EXITS": "https://mirror.example/torbulkexitlist"}`. */
    feedUrls: z
      .preprocess(
        jsonContext,
        z.partialRecord(z.enum(FEED_NAMES), z.url({ protocol: /^https$/, error: 'must be an https URL' })),
      )
      .optional(),
    /** Domain suffixes named internal: never sent to a third-party source (SIS_INTERNAL_SUFFIXES). */
    internalSuffixes: z.string().max(4000).optional(),
    /** A WAFv2 web ACL on the stage (managed rule groups + per-IP rate rule); about $8/month at idle. */
    enableWaf: contextBoolean.default(false),
    /** Requests per source IP in any 5-minute window before the WAF rate rule blocks (WAF minimum 10). */
    wafRateLimitPerIp: z.coerce.number().int().min(10).max(2_000_000_000).default(2000),
    /**
     * The analyst (docs/analyst.md): `rules` (default) or `bedrock`. With bedrock, bedrockModelId is a
     * foundation model ID (`anthropic.claude-…`), a cross-region inference profile ID (`us.anthropic.…`)
     * or an ARN of either; the analyst step may invoke that model only. A guardrail is optional.
     */
    analyst: z.enum(ANALYST_MODES).default('rules'),
    bedrockModelId: z
      .string()
      .regex(/^[A-Za-z0-9:/._-]{3,2048}$/, 'must be a Bedrock model ID, inference-profile ID or ARN')
      .optional(),
    bedrockGuardrailId: z
      .string()
      .regex(
        /^([a-z0-9]{1,64}|arn:aws[a-z-]*:bedrock:[a-z0-9-]+:\d{12}:guardrail\/[a-z0-9]+)$/,
        'must be a guardrail ID or ARN',
      )
      .optional(),
    bedrockGuardrailVersion: z
      .string()
      .regex(/^(DRAFT|[1-9][0-9]{0,7})$/, 'must be DRAFT or a version number')
      .optional(),
    /** Budgets per investigation (defaults: 6 turns, 8 lookups, 60,000 tokens, 300 s). */
    analystMaxTurns: z.coerce.number().int().min(1).max(20).optional(),
    analystMaxToolCalls: z.coerce.number().int().min(0).max(30).optional(),
    analystMaxTokens: z.coerce.number().int().min(1000).max(1_000_000).optional(),
    analystMaxSeconds: z.coerce.number().int().min(10).max(1800).optional(),
    /**
     * Prefix of the console's Cognito domain (`https://<prefix>.auth.<region>.amazoncognito.com`),
     * unique per region across AWS accounts. Default `sis-<tenant>-console`.
     */
    consoleDomainPrefix: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be lowercase letters, digits and dashes')
      .refine((prefix) => !/aws|amazon|cognito/.test(prefix), 'must not contain aws, amazon or cognito')
      .optional(),
    consoleIdentityProvider: z.preprocess(jsonContext, consoleIdentityProviderSchema).optional(),
  })
  .refine((s) => s.analyst !== 'bedrock' || Boolean(s.bedrockModelId), {
    error: 'bedrockModelId is required when analyst is bedrock',
    path: ['bedrockModelId'],
  })
  .refine((s) => Boolean(s.bedrockGuardrailId) === Boolean(s.bedrockGuardrailVersion), {
    error: 'bedrockGuardrailId and bedrockGuardrailVersion must be given together',
    path: ['bedrockGuardrailId'],
  })
  .refine((s) => s.intelConnectors.every((name) => KEYLESS_CONNECTORS.includes(name)) || !!s.intelSecretArn, {
    error: 'intelConnectors with keyed sources need intelSecretArn (the secret holding their keys)',
    path: ['intelSecretArn'],
  })
  .refine((s) => s.feeds.every((name) => !FEED_SOURCES[name].key?.required) || !!s.intelSecretArn, {
    error:
      'feeds URLHAUS and THREATFOX need the abuse.ch Auth-Key: set intelSecretArn (keys URLHAUS, THREATFOX)',
    path: ['intelSecretArn'],
  })
  .refine((s) => Boolean(s.customDomainName) === Boolean(s.customDomainCertificateArn), {
    error: 'customDomainName and customDomainCertificateArn must be given together',
    path: ['customDomainName'],
  });

export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const SETTING_KEYS = Object.keys(tenantSettingsSchema.shape) as (keyof TenantSettings)[];

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

export function parseTenantSettings(input: Record<string, unknown>): TenantSettings {
  const result = tenantSettingsSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `context '${issue.path.join('.')}' ${issue.message}`);
    throw new SettingsError(`Invalid deployment settings: ${problems.join('; ')}`);
  }
  return result.data;
}

export function tenantSettingsFromContext(node: Node): TenantSettings {
  const input: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = node.tryGetContext(key);
    if (value !== undefined && value !== '') input[key] = value;
  }
  return parseTenantSettings(input);
}
