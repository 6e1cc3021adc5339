import { z } from 'zod';

/**
 * The whole runtime configuration of every function and of the local runtime, parsed once per cold
 * start. A missing or malformed variable fails the cold start with a message naming the variable,
 * instead of surfacing later as an obscure SDK error on the first request.
 */
const booleanFlag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

export const configSchema = z.object({
  AWS_REGION: z.string().min(1).default('us-east-1'),
  SIS_TENANT: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'lowercase letters, digits and dashes, at most 31 characters')
    .default('local'),
  SIS_PUBLIC_URL: z.url().default('http://127.0.0.1:3000'),
  SIS_KEYS_TABLE: z.string().min(3).default('sis-local-keys'),
  SIS_SESSIONS_TABLE: z.string().min(3).default('sis-local-sessions'),
  SIS_GRAPH_TABLE: z.string().min(3).default('sis-local-graph'),
  SIS_INCIDENTS_TABLE: z.string().min(3).default('sis-local-incidents'),
  /** Set only for the local runtime and tests: the DynamoDB Local endpoint. */
  SIS_DYNAMODB_ENDPOINT: z.url().optional(),
  /** Set only for the local runtime: the local Step Functions endpoint. */
  SIS_SFN_ENDPOINT: z.url().optional(),
  SIS_STATE_MACHINE_ARN: z.string().optional(),
  /** Set only for the local runtime: the local SQS endpoint. */
  SIS_SQS_ENDPOINT: z.url().optional(),
  SIS_INCIDENT_QUEUE_URL: z.string().optional(),
  /** How long a synchronous start waits before handing back the session to poll. */
  SIS_SYNC_WAIT_SECONDS: z.coerce.number().int().min(1).max(1860).default(1860),
  /**
   * The investigation state machine's TimeoutSeconds, read from the ASL by the stack and the local
   * runtime and given to the stale-session sweeper (an active session older than this has no run).
   */
  SIS_WORKFLOW_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(31_536_000).optional(),
  SIS_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(1_048_576),
  /** REST API id and stage, so key admin can flush the authorizer cache and manage usage plans. */
  SIS_REST_API_ID: z.string().optional(),
  SIS_STAGE_NAME: z.string().optional(),
  SIS_USAGE_PLAN_ID: z.string().optional(),
  SIS_AUTHORIZER_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(0),
  /**
   * The deployment's default per-key limits, i.e. its default usage plan's (the stack sets them on the
   * key-administration functions from the settings rateLimitPerSecond, burstLimit, dailyQuota). A key
   * created without its own limits is stored with them. Unset: 10/s, burst 20; quota unset or 0: none.
   */
  SIS_DEFAULT_RATE_PER_SECOND: z.coerce.number().positive().max(10_000).optional(),
  SIS_DEFAULT_BURST: z.coerce.number().int().min(1).max(5_000).optional(),
  SIS_DEFAULT_DAILY_QUOTA: z.coerce.number().int().min(0).max(100_000_000).optional(),
  SIS_DEMO_DATA: booleanFlag.default(true),
  /**
   * TEST-ONLY fault injection for the investigation workflow steps (docs/workflow.md), honoured only
   * against DynamoDB Local (SIS_DYNAMODB_ENDPOINT set); the CDK stack never sets it. Comma-separated
   * `<step>@<entity value>[#<tool>]=throw|delay:<ms>`, e.g. `step-assess@fault.example.com=throw`.
   */
  SIS_FAULT_INJECTION: z.string().max(2000).optional(),
  /**
   * TEST-ONLY: the fraction (0-0.5) of DynamoDB requests that fail with
   * ProvisionedThroughputExceededException before reaching DynamoDB Local, on every attempt the SDK
   * makes (shared/store/dynamo-client.ts). Honoured only with SIS_DYNAMODB_ENDPOINT set; the CDK stack
   * never sets it. Proves the SDK's retry configuration absorbs throttling without losing data.
   */
  SIS_DYNAMODB_FAULT_RATE: z.coerce.number().min(0).max(0.5).optional(),
  /**
   * SIEM pull connectors (functions/siem-pull). A connector runs only when its URL is set: Sentinel's
   * workspace resource URL (`https://management.azure.com/subscriptions/…/workspaces/<ws>`), the Splunk
   * management URL (`https://splunk:8089`), the Kibana URL for Elastic. Credentials are a JSON object
   * (see docs/incidents.md): on AWS in the Secrets Manager secret named by *_SECRET_ARN, locally in
   * *_CREDENTIALS. The local runtime pulls every SIS_SIEM_PULL_INTERVAL_SECONDS when set.
   */
  SIS_SIEM_SENTINEL_URL: z.url().optional(),
  SIS_SIEM_SENTINEL_SECRET_ARN: z.string().optional(),
  SIS_SIEM_SENTINEL_CREDENTIALS: z.string().max(8192).optional(),
  SIS_SIEM_SPLUNK_URL: z.url().optional(),
  SIS_SIEM_SPLUNK_WEB_URL: z.url().optional(),
  SIS_SIEM_SPLUNK_SECRET_ARN: z.string().optional(),
  SIS_SIEM_SPLUNK_CREDENTIALS: z.string().max(8192).optional(),
  SIS_SIEM_ELASTIC_URL: z.url().optional(),
  SIS_SIEM_ELASTIC_SECRET_ARN: z.string().optional(),
  SIS_SIEM_ELASTIC_CREDENTIALS: z.string().max(8192).optional(),
  SIS_SIEM_PULL_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).optional(),
  /**
   * The analyst (docs/analyst.md): `rules` (default) writes the narrative from templates; `bedrock`
   * lets a model on Amazon Bedrock write it (Converse with tool use), falling back to `rules` on any
   * model failure. SIS_BEDROCK_MODEL_ID is a model ID, inference-profile ID or ARN. The SDK's own
   * AWS_ENDPOINT_URL_BEDROCK_RUNTIME points the client elsewhere (the tests' local Converse server).
   */
  SIS_ANALYST: z.enum(['rules', 'bedrock']).default('rules'),
  SIS_BEDROCK_MODEL_ID: z.string().min(1).max(2048).optional(),
  SIS_BEDROCK_GUARDRAIL_ID: z.string().min(1).max(2048).optional(),
  SIS_BEDROCK_GUARDRAIL_VERSION: z
    .string()
    .regex(/^(DRAFT|[1-9][0-9]{0,7})$/)
    .optional(),
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: z.url().optional(),
  /** Budgets per investigation: model turns, tools the model may request, tokens, wall time. */
  SIS_ANALYST_MAX_TURNS: z.coerce.number().int().min(1).max(20).default(6),
  SIS_ANALYST_MAX_TOOL_CALLS: z.coerce.number().int().min(0).max(30).default(8),
  SIS_ANALYST_MAX_TOKENS: z.coerce.number().int().min(1000).max(1_000_000).default(60_000),
  SIS_ANALYST_MAX_SECONDS: z.coerce.number().int().min(10).max(1800).default(300),
  SIS_ANALYST_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(256).max(8192).default(2000),
  /** One Converse call: socket timeout and attempts (throttling is retried with backoff). */
  SIS_BEDROCK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(60),
  SIS_BEDROCK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  /**
   * Shown in the plugin manifests and on the terms page (`/legal`). The stack sets both from the
   * deployment settings `contactEmail` and `legalUrl`. SIS_LEGAL_URL is the operator's own terms page:
   * the manifests' `legal_info_url` then points there (it must answer 200 without credentials) and
   * `/legal` links to it; unset, `legal_info_url` is this service's own `/legal` page.
   */
  SIS_CONTACT_EMAIL: z.email().default('security-operations@example.com'),
  SIS_LEGAL_URL: z.url({ protocol: /^https?$/ }).optional(),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const result = configSchema.safeParse(env);
  if (result.success && result.data.SIS_ANALYST === 'bedrock' && !result.data.SIS_BEDROCK_MODEL_ID) {
    throw new ConfigError('Invalid configuration: SIS_BEDROCK_MODEL_ID: required when SIS_ANALYST=bedrock');
  }
  if (
    result.success &&
    Boolean(result.data.SIS_BEDROCK_GUARDRAIL_ID) !== Boolean(result.data.SIS_BEDROCK_GUARDRAIL_VERSION)
  ) {
    throw new ConfigError(
      'Invalid configuration: SIS_BEDROCK_GUARDRAIL_ID and SIS_BEDROCK_GUARDRAIL_VERSION must be set together',
    );
  }
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.data;
}

let cached: Config | undefined;

/** The process-wide configuration, parsed on first use (once per cold start). */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** For the local runtime and tests, which set the environment before handlers run. */
export function resetConfigForTests(): void {
  cached = undefined;
}
