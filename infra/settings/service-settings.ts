import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';
import { AUTO_INVESTIGATE_LEVELS } from '../../shared/domain/incidents/auto-investigate-levels';
import { LONGEST_NAME, MAX_TENANT_LENGTH } from '../naming';
import { TELEMETRY_DEFAULTS } from '../telemetry';
import { callbackBaseUrl, contextBoolean, httpsUrl, RETENTION_DAYS } from './context-values';
import { declare } from './declare';

/** The tenant, its API, limits, logs, alarms, tables and edge (see declaration.ts). */
export const SERVICE_SETTINGS = {
  tenant: declare({
    schema: z
      .string({ error: 'is required: pass -c tenant=<name> (lowercase letters, digits and dashes)' })
      .regex(
        /^[a-z0-9][a-z0-9-]*$/,
        'must be lowercase letters, digits or dashes, starting with a letter or digit',
      )
      .max(
        MAX_TENANT_LENGTH,
        `must be at most ${MAX_TENANT_LENGTH} characters: the longest generated name, ${LONGEST_NAME.name}, must fit the ${LONGEST_NAME.kind} limit of ${LONGEST_NAME.limit}`,
      ),
    docs: {
      default: '(required)',
      meaning: `1–${MAX_TENANT_LENGTH} lowercase letters, digits, dashes (the longest generated name, \`${LONGEST_NAME.name}\`, must fit the ${LONGEST_NAME.kind} limit of ${LONGEST_NAME.limit}). Names the stack and every resource. With \`consoleDomainPrefix\` unset it must not contain \`aws\`, \`amazon\` or \`cognito\` (the console's Cognito domain prefix \`sis-<tenant>-console\`).`,
    },
    variable: { name: 'SIS_TENANT', on: 'every function' },
  }),
  region: declare({
    schema: z
      .string()
      .regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'must be an AWS region code such as eu-west-1')
      .optional(),
    docs: {
      default: "credentials' region",
      meaning:
        'Pins the stack to a region (`eu-west-1`). Unset, the template is environment-agnostic and `AWS_REGION`/the profile decides.',
    },
  }),
  publicUrl: declare({
    schema: callbackBaseUrl().optional(),
    docs: {
      default: 'the stage URL, or `https://<customDomainName>`',
      meaning:
        'Base URL the service puts in links (`session_url`, manifests) and the console sign-in callbacks on. Set it when a proxy or CDN fronts the API. https only (http for `localhost`): Cognito refuses other callback URLs.',
    },
    variable: {
      name: 'SIS_PUBLIC_URL',
      on: 'every function, else the custom domain or stage URL',
      alsoFrom: 'customDomainName',
    },
  }),
  customDomainName: declare({
    schema: z
      .string()
      .regex(
        /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'must be a lowercase DNS name',
      )
      .optional(),
    docs: {
      default: 'none',
      meaning:
        'Serve the API at the root of this domain (regional endpoint, TLS 1.2 minimum). Needs `customDomainCertificateArn`.',
    },
  }),
  customDomainCertificateArn: declare({
    schema: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/,
        'must be an ACM certificate ARN',
      )
      .optional(),
    docs: { default: 'none', meaning: "ACM certificate for the domain, in the stack's region." },
  }),
  alarmEmail: declare({
    schema: z.email().optional(),
    docs: {
      default: 'none',
      meaning:
        'Subscribes this address to the alarm topic (the recipient must confirm the subscription email).',
    },
  }),
  dashboard: declare({
    schema: contextBoolean.default(true),
    docs: {
      default: '`true`',
      meaning:
        "The tenant's CloudWatch dashboard `sis-<tenant>`. An account's first three dashboards are free, each further one costs $3/month: with many tenants in one account, set `false` and keep one dashboard of your own. Alarms do not depend on it.",
    },
  }),
  debugLogging: declare({
    schema: contextBoolean.default(TELEMETRY_DEFAULTS.debugLogging),
    docs: {
      default: '`false`',
      meaning:
        "`true`: every function logs Lambda's platform records of every invocation (system level INFO) and DEBUG lines, and the state machine every execution event with its data (ALL); stack traces are mapped to the TypeScript sources at run time (`NODE_OPTIONS=--enable-source-maps`, about 1.2× the import time of every cold start). Off, successful calls log almost nothing and failures stay in full ([operations.md](operations.md#logs-insights-queries)); on, about 1.2 KB more logs per call and ~85 KB per investigation ([cost.md](cost.md#what-every-call-logs-and-traces)). For debugging sessions, not for good.",
    },
  }),
  traceSampleRate: declare({
    schema: z.coerce.number().min(0).max(1).default(TELEMETRY_DEFAULTS.traceSampleRate),
    docs: {
      default: '`0.005`',
      meaning:
        "Share of API requests X-Ray traces (0–1), through the tenant's sampling rule `sis-<tenant>` (fixed rate, no reservoir); the authorizer, the route's function and the workflow run a request starts follow its decision. `0`: no tracing and no rule (X-Ray allows 25 sampling rules per account).",
    },
  }),
  // API Gateway ends an integration after 29 s; the synchronous start must answer before that.
  syncWaitSeconds: declare({
    schema: z.coerce.number().int().min(1).max(27).default(25),
    docs: {
      default: '`25`',
      meaning:
        'How long a synchronous start waits before answering with the session to poll (1–27: API Gateway ends an integration at 29 s).',
    },
    variable: { name: 'SIS_SYNC_WAIT_SECONDS', on: 'every function' },
  }),
  authorizerCacheTtlSeconds: declare({
    schema: z.coerce.number().int().min(0).max(3600).default(0),
    docs: {
      default: '`0`',
      meaning:
        '0 = every request is authorized afresh (revocation is immediate; `X-API-Key` and `Authorization: Bearer` both work). Above 0, API Gateway caches decisions keyed on `X-API-Key` only; disable and rotate flush the cache ([api-keys.md](api-keys.md)).',
    },
    variable: { name: 'SIS_AUTHORIZER_CACHE_TTL_SECONDS', on: 'every function' },
  }),
  removalPolicy: declare({
    schema: z.enum(['retain', 'destroy']).default('retain'),
    docs: {
      default: '`retain`',
      meaning:
        '`retain`: tables (with deletion protection), queues, log groups and the state machine survive `cdk destroy`. `destroy`: everything goes with the stack — test tenants only.',
    },
  }),
  logRetentionDays: declare({
    schema: z.coerce
      .number()
      .int()
      .refine((days) => RETENTION_DAYS.has(days), {
        error: `must be one of ${[...RETENTION_DAYS].sort((a, b) => a - b).join(', ')}`,
      })
      .default(30)
      .transform((days) => days as RetentionDays),
    docs: {
      default: '`30`',
      meaning:
        "Retention of every log group (functions, access logs, execution logs): one of CloudWatch's values (1, 3, 5, 7, 14, 30, 60, 90, …).",
    },
  }),
  /** The default usage plan's per-key limits (API Gateway token bucket; quota per UTC day, 0 = none). */
  rateLimitPerSecond: declare({
    schema: z.coerce.number().positive().max(10_000).default(10),
    docs: { default: '`10`', meaning: 'Default usage plan: steady requests per second per key.' },
    variable: { name: 'SIS_DEFAULT_RATE_PER_SECOND', on: 'key administration functions' },
  }),
  burstLimit: declare({
    schema: z.coerce.number().int().min(1).max(5_000).default(20),
    docs: { default: '`20`', meaning: 'Default usage plan: burst per key.' },
    variable: { name: 'SIS_DEFAULT_BURST', on: 'key administration functions' },
  }),
  dailyQuota: declare({
    schema: z.coerce.number().int().min(0).max(100_000_000).default(0),
    docs: { default: '`0` (none)', meaning: 'Default usage plan: requests per key per UTC day.' },
    variable: { name: 'SIS_DEFAULT_DAILY_QUOTA', on: 'key administration functions' },
  }),
  maxRunningInvestigations: declare({
    schema: z.coerce.number().int().min(0).max(10_000).default(10),
    docs: {
      default: '`10`',
      meaning:
        'Investigations one API key or console user may have running at once (429 past it; 0 = no cap). [investigations.md](investigations.md#spending-caps)',
    },
    variable: { name: 'SIS_MAX_RUNNING_INVESTIGATIONS', on: 'every function' },
  }),
  consoleRateLimitPerSecond: declare({
    schema: z.coerce.number().positive().max(10_000).default(20),
    docs: {
      default: '`20`',
      meaning:
        'Stage throttle of each console route, steady requests per second for all signed-in people together (no usage plan covers people).',
    },
  }),
  consoleBurstLimit: declare({
    schema: z.coerce.number().int().min(1).max(5_000).default(40),
    docs: {
      default: '`40`',
      meaning: 'Stage throttle of each console route: burst, for all signed-in people together.',
    },
  }),
  dailyInvestigationQuota: declare({
    schema: z.coerce.number().int().min(0).max(10_000_000).default(500),
    docs: {
      default: '`500`',
      meaning:
        'Investigations one API key or console user may start per UTC day (429 until midnight past it; 0 = none). Shown with every key.',
    },
    variable: { name: 'SIS_DEFAULT_DAILY_INVESTIGATIONS', on: 'every function' },
  }),
  legalUrl: declare({
    schema: httpsUrl().optional(),
    docs: {
      default: "the service's own `<publicUrl>/legal` page",
      meaning:
        "The operator's own terms page (https), published as `legal_info_url` in the OpenAI-style plugin manifest; `/legal` then links to it. It must answer 200 without credentials (Security Copilot and other platforms fetch it anonymously).",
    },
    variable: { name: 'SIS_LEGAL_URL', on: 'every function' },
  }),
  contactEmail: declare({
    schema: z.email().optional(),
    docs: {
      default: '`security-operations@example.com`',
      meaning: 'Contact address in the plugin manifests and on the terms page.',
    },
    variable: { name: 'SIS_CONTACT_EMAIL', on: 'every function' },
  }),
  kmsKeyArn: declare({
    schema: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[0-9a-f-]{36}$/,
        'must be a KMS key ARN (not an alias)',
      )
      .optional(),
    docs: {
      default: 'none (AWS owned keys)',
      meaning:
        "Customer-managed KMS key for the four tables. Functions get `kms:Decrypt`/`Encrypt`/`GenerateDataKey`/`DescribeKey` on that key through DynamoDB only. The key policy must let the account's IAM grant it (the default key policy does).",
    },
  }),
  enableWaf: declare({
    schema: contextBoolean.default(false),
    docs: {
      default: '`false`',
      meaning:
        'Adds a WAFv2 web ACL on the stage: per-IP rate rule, AWS Common Rule Set (body rules counted, not blocked: ingested incidents carry attack strings), Known Bad Inputs. About $8/month.',
    },
  }),
  wafRateLimitPerIp: declare({
    schema: z.coerce.number().int().min(10).max(2_000_000_000).default(2000),
    docs: {
      default: '`2000`',
      meaning: 'Requests one source IP may send in any 5-minute window before the WAF answers 429.',
    },
  }),
  autoInvestigate: declare({
    schema: z.enum(AUTO_INVESTIGATE_LEVELS).default('off'),
    docs: {
      default: '`off`',
      meaning:
        'Incidents investigated as they arrive (docs/soar.md): an incident pushed or pulled at this severity or above (`medium`, `high`, `critical`) has each of its entities (at most 20) investigated, each at most once per 24 h, by the system principal `system:auto-investigation`.',
    },
    variable: { name: 'SIS_AUTO_INVESTIGATE_SEVERITY', on: 'every function' },
  }),
  autoInvestigateDailyQuota: declare({
    schema: z.coerce.number().int().min(0).max(100_000).default(200),
    docs: {
      default: '`200`',
      meaning:
        'Investigations the auto-investigation principal may start per UTC day (0 = none); past it, entities wait for the next day. Counted by the `AutoInvestigationsStarted` metric.',
    },
    variable: { name: 'SIS_AUTO_INVESTIGATE_DAILY_QUOTA', on: 'every function' },
  }),
};
