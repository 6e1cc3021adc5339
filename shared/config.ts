import { feedEnv, intelEnv } from './config/connector-variables';
import {
  booleanFlag,
  consolePassword,
  cursorSecret,
  type Declared,
  dailyQuota,
  optional,
  optionalNonEmpty,
  optionalText,
  optionalUrl,
  retentionDays,
  siemCredentials,
  tableName,
  withDefault,
} from './config/declared';
import { ANALYST_MODES } from './domain/analyst/modes';
import { AUTO_INVESTIGATE_LEVELS } from './domain/incidents/auto-investigate-levels';
import { CONNECTOR_NAMES, intelEnvPrefix, KEYLESS_CONNECTORS } from './domain/intel/names';
import { DEFAULT_RETENTION_DAYS } from './domain/retention/retention';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/webhooks/retry-schedule';
import * as z from './zod';

/**
 * The whole runtime configuration of every function and of the local runtime: one zod schema over
 * process.env, parsed once per cold start. A missing or malformed variable fails the cold start with
 * a message naming the variable, instead of surfacing later as an obscure SDK error on the first
 * request.
 *
 * Each variable is declared below with a function that builds the schema of its value, and a cold
 * start builds the schemas of the variables its environment sets, and no other (`schemaOf`): an unset
 * variable needs no schema, it reads as its default or as undefined. Building the schema of every
 * variable (~100, most of them unset in any one function) was most of the configuration's cost at
 * each cold start, ~11 ms of CPU of ~15 with the parse (issue #17). `configSchema()` builds the
 * whole schema, which parseConfig matches for every environment (test/unit/settings/config.test.ts).
 */

const variables = {
  AWS_REGION: withDefault('us-east-1', () => z.string().check(z.minLength(1))),
  SIS_TENANT: withDefault('local', () =>
    z
      .string()
      .check(
        z.regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'lowercase letters, digits and dashes, at most 31 characters'),
      ),
  ),
  SIS_PUBLIC_URL: withDefault('http://127.0.0.1:3000', () => z.url()),
  SIS_KEYS_TABLE: withDefault('sis-local-keys', tableName),
  SIS_SESSIONS_TABLE: withDefault('sis-local-sessions', tableName),
  SIS_GRAPH_TABLE: withDefault('sis-local-graph', tableName),
  SIS_INCIDENTS_TABLE: withDefault('sis-local-incidents', tableName),
  SIS_INTEL_TABLE: withDefault('sis-local-intel', tableName),
  /** Set only for the local runtime and tests: the DynamoDB Local endpoint. */
  SIS_DYNAMODB_ENDPOINT: optionalUrl,
  /** Set only for the local runtime: the local Step Functions endpoint. */
  SIS_SFN_ENDPOINT: optionalUrl,
  SIS_STATE_MACHINE_ARN: optionalText,
  /**
   * The Express state machine built from the same definition (docs/workflow.md "Express or
   * Standard"); unset, every run starts on SIS_STATE_MACHINE_ARN (Standard).
   */
  SIS_EXPRESS_STATE_MACHINE_ARN: optionalText,
  /** Set only for the local runtime: the local SQS endpoint. */
  SIS_SQS_ENDPOINT: optionalUrl,
  /** Set only for the local runtime: the local Lambda endpoint (Invoke; local/webhooks/lambda-invoke.ts). */
  SIS_LAMBDA_ENDPOINT: optionalUrl,
  /** Set only for the local runtime: the local EventBridge Scheduler endpoint (local/webhooks/scheduler.ts). */
  SIS_SCHEDULER_ENDPOINT: optionalUrl,
  SIS_INCIDENT_QUEUE_URL: optionalText,
  /** How long a synchronous start waits before handing back the session to poll. */
  SIS_SYNC_WAIT_SECONDS: withDefault(1860, () => z.coerce.number().check(z.int(), z.gte(1), z.lte(1860))),
  /**
   * The investigation state machine's TimeoutSeconds, read from the ASL by the stack and the local
   * runtime and given to the stale-session sweeper (an active session older than this has no run).
   */
  SIS_WORKFLOW_TIMEOUT_SECONDS: optional(() => z.coerce.number().check(z.int(), z.gte(1), z.lte(31_536_000))),
  SIS_MAX_BODY_BYTES: withDefault(1_048_576, () =>
    z.coerce.number().check(z.int(), z.gte(1024), z.lte(10_485_760)),
  ),
  /** REST API id and stage, so key admin can flush the authorizer cache and manage usage plans. */
  SIS_REST_API_ID: optionalText,
  SIS_STAGE_NAME: optionalText,
  SIS_USAGE_PLAN_ID: optionalText,
  SIS_AUTHORIZER_CACHE_TTL_SECONDS: withDefault(0, () =>
    z.coerce.number().check(z.int(), z.gte(0), z.lte(3600)),
  ),
  /**
   * The deployment's default per-key limits, i.e. its default usage plan's (the stack sets them on the
   * key-administration functions from the settings rateLimitPerSecond, burstLimit, dailyQuota). A key
   * created without its own limits is stored with them. Unset: 10/s, burst 20; quota unset or 0: none.
   */
  SIS_DEFAULT_RATE_PER_SECOND: optional(() => z.coerce.number().check(z.positive(), z.lte(10_000))),
  SIS_DEFAULT_BURST: optional(() => z.coerce.number().check(z.int(), z.gte(1), z.lte(5_000))),
  SIS_DEFAULT_DAILY_QUOTA: dailyQuota,
  /**
   * Spending caps (docs/investigations.md): investigations running at once per API key or console
   * user, and investigations started per UTC day per key or user (shown in the key view). 0: no cap.
   * The stack sets both from the settings maxRunningInvestigations and dailyInvestigationQuota.
   */
  SIS_MAX_RUNNING_INVESTIGATIONS: withDefault(10, () =>
    z.coerce.number().check(z.int(), z.gte(0), z.lte(10_000)),
  ),
  SIS_DEFAULT_DAILY_INVESTIGATIONS: withDefault(500, () =>
    z.coerce.number().check(z.int(), z.gte(0), z.lte(10_000_000)),
  ),
  SIS_DEMO_DATA: withDefault(true, booleanFlag),
  /**
   * Incidents investigated as they arrive (docs/soar.md): the lowest severity that is (off: none),
   * the system principal's daily quota of such investigations, and how long the incident queue
   * waits before it looks again at an incident whose investigations are under way or deferred (not
   * a deployment setting; tests shorten it).
   */
  SIS_AUTO_INVESTIGATE_SEVERITY: withDefault('off', () => z.enum(AUTO_INVESTIGATE_LEVELS)),
  SIS_AUTO_INVESTIGATE_DAILY_QUOTA: withDefault(200, () =>
    z.coerce.number().check(z.int(), z.gte(0), z.lte(100_000)),
  ),
  SIS_AUTO_INVESTIGATE_RECHECK_SECONDS: withDefault(30, () =>
    z.coerce.number().check(z.int(), z.gte(0), z.lte(900)),
  ),
  /**
   * Directory of the offline enrichment data (IP → ASN/country, mail-provider lists) shipped with the
   * run-tool function; the stack sets it. Unset locally: built from the installed data packages into
   * node_modules/.cache/sis-offline-data on first use. docs/investigations.md.
   */
  SIS_OFFLINE_DATA_DIR: optionalNonEmpty,
  /**
   * TEST-ONLY fault injection for the investigation workflow steps (docs/workflow.md), honoured only
   * against DynamoDB Local (SIS_DYNAMODB_ENDPOINT set); the CDK stack never sets it. Comma-separated
   * `<step>@<entity value>[#<tool>]=throw|delay:<ms>`, e.g. `step-assess@fault.example.com=throw`.
   */
  SIS_FAULT_INJECTION: optional(() => z.string().check(z.maxLength(2000))),
  /**
   * TEST-ONLY: the fraction (0-0.5) of DynamoDB requests that fail with
   * ProvisionedThroughputExceededException before reaching DynamoDB Local, on every attempt the SDK
   * makes (shared/store/dynamo-client.ts). Honoured only with SIS_DYNAMODB_ENDPOINT set; the CDK stack
   * never sets it. Proves the SDK's retry configuration absorbs throttling without losing data.
   */
  SIS_DYNAMODB_FAULT_RATE: optional(() => z.coerce.number().check(z.gte(0), z.lte(0.5))),
  /**
   * SIEM pull connectors (functions/siem-pull). A connector runs only when its URL is set: Sentinel's
   * workspace resource URL (`https://management.azure.com/subscriptions/…/workspaces/<ws>`), the Splunk
   * management URL (`https://splunk:8089`), the Kibana URL for Elastic. Credentials are a JSON object
   * (see docs/incidents.md): on AWS in the Secrets Manager secret named by *_SECRET_ARN, locally in
   * *_CREDENTIALS. The local runtime pulls every SIS_SIEM_PULL_INTERVAL_SECONDS when set.
   */
  SIS_SIEM_SENTINEL_URL: optionalUrl,
  SIS_SIEM_SENTINEL_SECRET_ARN: optionalText,
  SIS_SIEM_SENTINEL_CREDENTIALS: siemCredentials,
  SIS_SIEM_SPLUNK_URL: optionalUrl,
  SIS_SIEM_SPLUNK_WEB_URL: optionalUrl,
  SIS_SIEM_SPLUNK_SECRET_ARN: optionalText,
  SIS_SIEM_SPLUNK_CREDENTIALS: siemCredentials,
  SIS_SIEM_ELASTIC_URL: optionalUrl,
  SIS_SIEM_ELASTIC_SECRET_ARN: optionalText,
  SIS_SIEM_ELASTIC_CREDENTIALS: siemCredentials,
  SIS_SIEM_PULL_INTERVAL_SECONDS: optional(() => z.coerce.number().check(z.int(), z.gte(10), z.lte(86_400))),
  /**
   * The analyst (docs/analyst.md): `rules` (default) writes the narrative from templates; `bedrock`
   * lets a model on Amazon Bedrock write it (Converse with tool use), falling back to `rules` on any
   * model failure. SIS_BEDROCK_MODEL_ID is a model ID, inference-profile ID or ARN. The SDK's own
   * AWS_ENDPOINT_URL_BEDROCK_RUNTIME points the client elsewhere (the tests' local Converse server).
   */
  SIS_ANALYST: withDefault('rules', () => z.enum(ANALYST_MODES)),
  SIS_BEDROCK_MODEL_ID: optional(() => z.string().check(z.minLength(1), z.maxLength(2048))),
  SIS_BEDROCK_GUARDRAIL_ID: optional(() => z.string().check(z.minLength(1), z.maxLength(2048))),
  SIS_BEDROCK_GUARDRAIL_VERSION: optional(() => z.string().check(z.regex(/^(DRAFT|[1-9][0-9]{0,7})$/))),
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: optionalUrl,
  /** Budgets per investigation: model turns, tools the model may request, tokens, wall time. */
  SIS_ANALYST_MAX_TURNS: withDefault(6, () => z.coerce.number().check(z.int(), z.gte(1), z.lte(20))),
  SIS_ANALYST_MAX_TOOL_CALLS: withDefault(8, () => z.coerce.number().check(z.int(), z.gte(0), z.lte(30))),
  SIS_ANALYST_MAX_TOKENS: withDefault(60_000, () =>
    z.coerce.number().check(z.int(), z.gte(1000), z.lte(1_000_000)),
  ),
  SIS_ANALYST_MAX_SECONDS: withDefault(300, () => z.coerce.number().check(z.int(), z.gte(10), z.lte(1800))),
  SIS_ANALYST_MAX_OUTPUT_TOKENS: withDefault(2000, () =>
    z.coerce.number().check(z.int(), z.gte(256), z.lte(8192)),
  ),
  /**
   * The tenant's Bedrock tokens (input + output) per calendar month, UTC; unset or 0: no budget. Past
   * it the analyst writes no more (rules narrative, fallback `budget_exhausted`); the stack alarms at
   * 80 % (metric BedrockMonthlyBudgetUsedPercent).
   */
  SIS_BEDROCK_MONTHLY_TOKEN_BUDGET: optional(() => z.coerce.number().check(z.int(), z.gte(0), z.lte(1e12))),
  /** One Converse call: socket timeout and attempts (throttling is retried with backoff). */
  SIS_BEDROCK_TIMEOUT_SECONDS: withDefault(50, () => z.coerce.number().check(z.int(), z.gte(1), z.lte(120))),
  SIS_BEDROCK_MAX_ATTEMPTS: withDefault(4, () => z.coerce.number().check(z.int(), z.gte(1), z.lte(10))),
  /**
   * Console sign-in (docs/console.md). The OpenID Connect issuer whose ID tokens the console
   * authorizer accepts (on AWS `https://cognito-idp.<region>.amazonaws.com/<pool id>`, locally
   * `<public url>/oidc`), the public app client ID (the tokens' `aud`), the JWKS URL (default: the
   * issuer's `/.well-known/jwks.json`), the Cognito user pool ID (AWS only: selects Cognito's
   * verifier) and the base URL of the sign-in endpoints `/oauth2/authorize`, `/oauth2/token` and
   * `/logout` (the user pool domain on AWS; default: the issuer). Unset issuer: console data routes
   * refuse every request with 401.
   */
  SIS_CONSOLE_ISSUER: optionalUrl,
  SIS_CONSOLE_CLIENT_ID: optional(() => z.string().check(z.minLength(1), z.maxLength(128))),
  SIS_CONSOLE_JWKS_URL: optionalUrl,
  SIS_CONSOLE_USER_POOL_ID: optional(() =>
    z
      .string()
      .check(z.regex(/^[a-z]{2}-[a-z]+-\d_[A-Za-z0-9]+$/, 'a Cognito user pool ID such as eu-west-1_AbC123')),
  ),
  SIS_CONSOLE_LOGIN_URL: optionalUrl,
  /** Local runtime only: passwords of the local issuer's users `admin` and `analyst` (else generated). */
  SIS_CONSOLE_ADMIN_PASSWORD: consolePassword,
  SIS_CONSOLE_ANALYST_PASSWORD: consolePassword,
  /**
   * Pagination cursors are signed (HMAC-SHA256) with a per-deployment secret (docs/api-keys.md,
   * "Cursor secret"), kept in the keys table and created there by the first function that pages.
   * SIS_CURSOR_SECRET overrides it (an operator's own local key), SIS_CURSOR_SECRET_PREVIOUS keeps
   * cursors signed with the key before a rotation valid.
   */
  SIS_CURSOR_SECRET: cursorSecret,
  SIS_CURSOR_SECRET_PREVIOUS: cursorSecret,
  /**
   * Shown in the plugin manifests and on the terms page (`/legal`). The stack sets both from the
   * deployment settings `contactEmail` and `legalUrl`. SIS_LEGAL_URL is the operator's own terms page:
   * the manifests' `legal_info_url` then points there (it must answer 200 without credentials) and
   * `/legal` links to it; unset, `legal_info_url` is this service's own `/legal` page.
   */
  SIS_CONTACT_EMAIL: withDefault('security-operations@example.com', () => z.email()),
  SIS_LEGAL_URL: optional(() => z.url({ protocol: /^https?$/ })),
  ...feedEnv,
  /** AWS: the bucket holding the feeds' compiled sets (the stack sets it). */
  SIS_FEEDS_BUCKET: optionalNonEmpty,
  /** Local: the directory holding the feeds' compiled sets (the local runtime sets it). */
  SIS_FEEDS_DIR: optionalNonEmpty,
  /** One feed download's time limit (connect to last byte). */
  SIS_FEED_TIMEOUT_SECONDS: withDefault(120, () => z.coerce.number().check(z.int(), z.gte(1), z.lte(900))),
  /** Overrides every feed's declared download size cap (bytes); tests use a small one. */
  SIS_FEED_MAX_BYTES: optional(() => z.coerce.number().check(z.int(), z.gte(1024), z.lte(1_073_741_824))),
  ...intelEnv,
  /** AWS: the tenant's Secrets Manager secret holding the connectors' keys, JSON {"ABUSEIPDB": "<key>", ...}. */
  SIS_INTEL_SECRET_ARN: optionalNonEmpty,
  /** Per attempt; retries (on 429/5xx, honouring Retry-After) stay within the tool's time. */
  SIS_INTEL_TIMEOUT_MS: withDefault(4_000, () => z.coerce.number().check(z.int(), z.gte(100), z.lte(60_000))),
  SIS_INTEL_RETRIES: withDefault(2, () => z.coerce.number().check(z.int(), z.gte(0), z.lte(5))),
  /**
   * Comma-separated domain suffixes (also matching hosts and users@suffix) the deployment names as
   * internal: never sent to a third-party intelligence source, e.g. `corp.example.com,ad.example.net`.
   */
  SIS_INTERNAL_SUFFIXES: withDefault([], () =>
    z.pipe(
      z.string().check(z.maxLength(4000)),
      z.transform((value: string) =>
        value
          .split(',')
          .map((s) =>
            s
              .trim()
              .toLowerCase()
              .replace(/^[.@]+/, ''),
          )
          .filter(Boolean),
      ),
    ),
  ),
  /**
   * Webhooks (docs/soar.md "Webhooks"): the delivery function a first attempt is invoked on (the
   * stack sets it on the functions that publish), the schedule group and the role EventBridge
   * Scheduler runs retries in and with (set on the delivery function), one attempt's time limit
   * (connect to last byte, at most 15 s), the waits before each retry (seconds, comma-separated;
   * shared/domain/webhooks/retry-schedule.ts) and, for local tests only (the synth refuses it),
   * deliveries to http://127.0.0.1.
   */
  SIS_WEBHOOK_FUNCTION_ARN: optionalText,
  SIS_WEBHOOK_SCHEDULE_GROUP: optionalText,
  SIS_WEBHOOK_SCHEDULER_ROLE_ARN: optionalText,
  SIS_WEBHOOK_TIMEOUT_SECONDS: withDefault(15, () => z.coerce.number().check(z.int(), z.gte(1), z.lte(15))),
  SIS_WEBHOOK_RETRY_SCHEDULE: withDefault([...DEFAULT_RETRY_SCHEDULE], () =>
    z.pipe(
      z.string().check(z.maxLength(200)),
      z.transform((value: string, ctx): number[] => {
        try {
          return parseRetrySchedule(value);
        } catch (error) {
          ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
          return z.NEVER;
        }
      }),
    ),
  ),
  SIS_WEBHOOK_ALLOW_LOOPBACK: withDefault(false, booleanFlag),
  /**
   * Days each kind of data is kept (shared/domain/retention/retention.ts; 0 = forever): the store
   * writes every item's TTL from them (shared/store/retention/retention-ttl.ts). The stack sets them from the
   * settings sessionRetentionDays, incidentRetentionDays, graphRetentionDays, auditRetentionDays.
   */
  SIS_SESSION_RETENTION_DAYS: withDefault(DEFAULT_RETENTION_DAYS.sessions, retentionDays),
  SIS_INCIDENT_RETENTION_DAYS: withDefault(DEFAULT_RETENTION_DAYS.incidents, retentionDays),
  SIS_GRAPH_RETENTION_DAYS: withDefault(DEFAULT_RETENTION_DAYS.graph, retentionDays),
  SIS_AUDIT_RETENTION_DAYS: withDefault(DEFAULT_RETENTION_DAYS.audit, retentionDays),
} satisfies Record<string, Declared<z.ZodMiniType, boolean>>;

type Variables = typeof variables;
type VariableName = keyof Variables;
type WholeShape = {
  [K in VariableName]: Variables[K] extends Declared<infer S, true>
    ? z.ZodMiniDefault<S>
    : Variables[K] extends Declared<infer S, false>
      ? z.ZodMiniOptional<S>
      : never;
};

export type Config = z.infer<z.ZodMiniObject<WholeShape>>;

const variableNames = Object.keys(variables) as VariableName[];

/**
 * The whole schema, every variable with its default or as optional: what the configuration means,
 * for tests and tools. parseConfig gives the same result and the same messages for every
 * environment (test/unit/settings/config.test.ts).
 */
export function configSchema(): z.ZodMiniObject<WholeShape> {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of variableNames) {
    const variable: Declared<z.ZodMiniType, boolean> = variables[name];
    shape[name] = variable.hasDefault
      ? z._default(variable.schema(), variable.fallback)
      : z.optional(variable.schema());
  }
  return z.object(shape) as unknown as z.ZodMiniObject<WholeShape>;
}

/**
 * The schema of the variables `env` sets, each with its declared schema (a set variable's value is
 * validated as the whole schema would: an optional or default wrapper only acts on an unset one).
 * Kept for the next parse of an environment setting the same variables, and first built while the
 * module loads, for the environment the function starts with: the schemas a cold start needs are
 * built in its import, as before, and only those.
 */
function schemaOf(env: NodeJS.ProcessEnv): z.ZodMiniObject {
  const names = setVariables(env);
  const key = names.join(',');
  if (present.key !== key) present = { key, schema: objectOf(names) };
  return present.schema;
}
const setVariables = (env: NodeJS.ProcessEnv) => variableNames.filter((name) => env[name] !== undefined);
function objectOf(names: VariableName[]): z.ZodMiniObject {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of names) shape[name] = variables[name].schema();
  return z.object(shape);
}
let present: { key: string; schema: z.ZodMiniObject } = /* @__PURE__ */ (() => {
  const names = setVariables(process.env);
  return { key: names.join(','), schema: objectOf(names) };
})();

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const result = schemaOf(env).safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const cfg = withUnsetVariables(result.data, env);
  if (cfg.SIS_ANALYST === 'bedrock' && !cfg.SIS_BEDROCK_MODEL_ID) {
    throw new ConfigError('Invalid configuration: SIS_BEDROCK_MODEL_ID: required when SIS_ANALYST=bedrock');
  }
  if (Boolean(cfg.SIS_BEDROCK_GUARDRAIL_ID) !== Boolean(cfg.SIS_BEDROCK_GUARDRAIL_VERSION)) {
    throw new ConfigError(
      'Invalid configuration: SIS_BEDROCK_GUARDRAIL_ID and SIS_BEDROCK_GUARDRAIL_VERSION must be set together',
    );
  }
  intelConfigProblems(cfg);
  return cfg;
}

/** The parsed set variables with the defaults of the unset ones, in declaration order. */
function withUnsetVariables(parsed: Record<string, unknown>, env: NodeJS.ProcessEnv): Config {
  const cfg: Record<string, unknown> = {};
  for (const name of variableNames) {
    const variable: Declared<z.ZodMiniType, boolean> = variables[name];
    if (env[name] !== undefined) cfg[name] = parsed[name];
    // A fresh copy of an array default, as zod's `_default` hands out (SIS_INTERNAL_SUFFIXES).
    else if (variable.hasDefault)
      cfg[name] = Array.isArray(variable.fallback) ? [...variable.fallback] : variable.fallback;
  }
  return cfg as Config;
}

/** A keyed connector enabled without a key anywhere, or MISP without its server's URL. */
function intelConfigProblems(cfg: Config): void {
  const env = cfg as unknown as Record<string, unknown>;
  for (const name of CONNECTOR_NAMES) {
    const prefix = intelEnvPrefix(name);
    const key = env[`${prefix}_API_KEY`];
    const enabled = env[`${prefix}_ENABLED`] === true;
    if (!KEYLESS_CONNECTORS.includes(name) && enabled && !key && !cfg.SIS_INTEL_SECRET_ARN) {
      throw new ConfigError(
        `Invalid configuration: ${prefix}_ENABLED: ${name} needs a key: set ${prefix}_API_KEY (or SIS_INTEL_SECRET_ARN on AWS)`,
      );
    }
    if (name === 'misp' && (key || enabled) && !cfg.SIS_INTEL_MISP_URL) {
      throw new ConfigError(
        "Invalid configuration: SIS_INTEL_MISP_URL: MISP is the tenant's own server: set its base URL",
      );
    }
  }
}

let cached: Config | undefined;

/** The process-wide configuration, parsed on first use (once per cold start). */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * A value built from the configuration once per process (clients, repositories, service contexts),
 * and built again only when the configuration object changes: the local runtime and tests reset it
 * with new table names. At module level, annotate the call as `@__PURE__`: a bundle that imports the
 * module but not the value then drops it, and the clients it would build with it.
 */
export function perConfiguration<T>(build: (cfg: Config) => T): () => T {
  let built: { cfg: Config; value: T } | undefined;
  return () => {
    const cfg = config();
    if (built?.cfg !== cfg) built = { cfg, value: build(cfg) };
    return built.value;
  };
}

/** For the local runtime and tests, which set the environment before handlers run. */
export function resetConfigForTests(): void {
  cached = undefined;
}
