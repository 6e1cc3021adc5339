import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, parseConfig } from '../../../shared/config';

/*
 * parseConfig builds the schemas of the variables an environment sets, and no other; these tests
 * hold it to the whole schema (every variable, with its default or optional): the same values, and
 * for a malformed value of every kind the same failure, naming the variable.
 */
const whole = configSchema();

function wholeSchemaMessage(env: NodeJS.ProcessEnv): string {
  const result = whole.safeParse(env);
  if (result.success) throw new Error(`the whole schema accepts ${JSON.stringify(env)}`);
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return `Invalid configuration: ${problems.join('; ')}`;
}

function failure(env: NodeJS.ProcessEnv): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

/** One malformed value of each construct the configuration uses, and of each shared building block. */
const MALFORMED: Record<string, string>[] = [
  { AWS_REGION: '' },
  { SIS_TENANT: 'Acme_Corp' },
  { SIS_TENANT: 'a'.repeat(32) },
  { SIS_PUBLIC_URL: 'not a url' },
  { SIS_KEYS_TABLE: 'ab' },
  { SIS_INTEL_TABLE: '' },
  { SIS_DYNAMODB_ENDPOINT: 'http//127.0.0.1:8000' },
  { SIS_SQS_ENDPOINT: '' },
  { SIS_LAMBDA_ENDPOINT: '127.0.0.1:9001' },
  { SIS_SCHEDULER_ENDPOINT: '' },
  { SIS_SYNC_WAIT_SECONDS: '0' },
  { SIS_SYNC_WAIT_SECONDS: '1861' },
  { SIS_SYNC_WAIT_SECONDS: '2.5' },
  { SIS_SYNC_WAIT_SECONDS: 'soon' },
  { SIS_WORKFLOW_TIMEOUT_SECONDS: '31536001' },
  { SIS_MAX_BODY_BYTES: '1023' },
  { SIS_AUTHORIZER_CACHE_TTL_SECONDS: '-1' },
  { SIS_DEFAULT_RATE_PER_SECOND: '0' },
  { SIS_DEFAULT_BURST: '1.5' },
  { SIS_DEFAULT_DAILY_QUOTA: '100000001' },
  { SIS_DEMO_DATA: 'yes' },
  { SIS_OFFLINE_DATA_DIR: '' },
  { SIS_FAULT_INJECTION: 'x'.repeat(2001) },
  { SIS_DYNAMODB_FAULT_RATE: '0.9' },
  { SIS_SIEM_SPLUNK_URL: 'splunk 8089' },
  { SIS_SIEM_SENTINEL_CREDENTIALS: 'x'.repeat(8193) },
  { SIS_SIEM_PULL_INTERVAL_SECONDS: '5' },
  { SIS_ANALYST: 'gpt' },
  { SIS_BEDROCK_MODEL_ID: '' },
  { SIS_BEDROCK_GUARDRAIL_VERSION: 'v1' },
  { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'bedrock' },
  { SIS_ANALYST_MAX_TURNS: '21' },
  { SIS_ANALYST_MAX_OUTPUT_TOKENS: '100' },
  { SIS_BEDROCK_MAX_ATTEMPTS: '0' },
  { SIS_CONSOLE_ISSUER: 'issuer' },
  { SIS_CONSOLE_CLIENT_ID: 'c'.repeat(129) },
  { SIS_CONSOLE_USER_POOL_ID: 'pool' },
  { SIS_CONSOLE_ADMIN_PASSWORD: 'short' },
  { SIS_CURSOR_SECRET_PREVIOUS: 'too short for a key' },
  { SIS_CONTACT_EMAIL: 'security-operations' },
  { SIS_LEGAL_URL: 'ftp://legal.example.com/terms' },
  { SIS_INTEL_ABUSEIPDB_API_KEY: '  short  ' },
  { SIS_INTEL_GREYNOISE_URL: 'greynoise' },
  { SIS_INTEL_INTERNETDB_ENABLED: 'on' },
  { SIS_INTEL_MISP_DAILY_QUOTA: '-1' },
  { SIS_INTEL_SECRET_ARN: '' },
  { SIS_INTEL_TIMEOUT_MS: '99' },
  { SIS_INTEL_RETRIES: '6' },
  { SIS_INTERNAL_SUFFIXES: 'x'.repeat(4001) },
];

/** Every variable set, to a valid value; one value per construct and per transform. */
const EVERY_VARIABLE: Record<string, string> = {
  AWS_REGION: 'eu-west-1',
  SIS_TENANT: 'acme-1',
  SIS_PUBLIC_URL: 'https://sis.example.com',
  SIS_KEYS_TABLE: 'acme-keys',
  SIS_SESSIONS_TABLE: 'acme-sessions',
  SIS_GRAPH_TABLE: 'acme-graph',
  SIS_INCIDENTS_TABLE: 'acme-incidents',
  SIS_INTEL_TABLE: 'acme-intel',
  SIS_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
  SIS_SFN_ENDPOINT: 'http://127.0.0.1:8083',
  SIS_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:000000000000:stateMachine:x',
  SIS_SQS_ENDPOINT: 'http://127.0.0.1:9324',
  SIS_LAMBDA_ENDPOINT: 'http://127.0.0.1:9001',
  SIS_SCHEDULER_ENDPOINT: 'http://127.0.0.1:9002',
  SIS_WEBHOOK_FUNCTION_ARN: 'arn:aws:lambda:eu-west-1:000000000000:function:acme-deliver-webhook',
  SIS_WEBHOOK_SCHEDULE_GROUP: 'acme-webhooks',
  SIS_WEBHOOK_SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/acme-scheduler',
  SIS_INCIDENT_QUEUE_URL: 'http://127.0.0.1:9324/000000000000/q',
  SIS_SYNC_WAIT_SECONDS: '25',
  SIS_WORKFLOW_TIMEOUT_SECONDS: '900',
  SIS_MAX_BODY_BYTES: '2048',
  SIS_REST_API_ID: 'api123',
  SIS_STAGE_NAME: 'v1',
  SIS_USAGE_PLAN_ID: 'plan1',
  SIS_AUTHORIZER_CACHE_TTL_SECONDS: '300',
  SIS_DEFAULT_RATE_PER_SECOND: '12.5',
  SIS_DEFAULT_BURST: '40',
  SIS_DEFAULT_DAILY_QUOTA: '0',
  SIS_DEMO_DATA: '0',
  SIS_OFFLINE_DATA_DIR: '/opt/offline',
  SIS_FAULT_INJECTION: 'step-assess@fault.example.com=throw',
  SIS_DYNAMODB_FAULT_RATE: '0.1',
  SIS_SIEM_SENTINEL_URL: 'https://management.azure.com/subscriptions/s/workspaces/w',
  SIS_SIEM_SENTINEL_SECRET_ARN: 'arn:sentinel',
  SIS_SIEM_SENTINEL_CREDENTIALS: '{"tenant":"t"}',
  SIS_SIEM_SPLUNK_URL: 'https://splunk:8089',
  SIS_SIEM_SPLUNK_WEB_URL: 'https://splunk:8000',
  SIS_SIEM_SPLUNK_SECRET_ARN: 'arn:splunk',
  SIS_SIEM_SPLUNK_CREDENTIALS: '{"token":"t"}',
  SIS_SIEM_ELASTIC_URL: 'https://kibana:5601',
  SIS_SIEM_ELASTIC_SECRET_ARN: 'arn:elastic',
  SIS_SIEM_ELASTIC_CREDENTIALS: '{"apiKey":"k"}',
  SIS_SIEM_PULL_INTERVAL_SECONDS: '60',
  SIS_ANALYST: 'bedrock',
  SIS_BEDROCK_MODEL_ID: 'anthropic.claude',
  SIS_BEDROCK_GUARDRAIL_ID: 'g1',
  SIS_BEDROCK_GUARDRAIL_VERSION: 'DRAFT',
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:9000',
  SIS_ANALYST_MAX_TURNS: '3',
  SIS_ANALYST_MAX_TOOL_CALLS: '0',
  SIS_ANALYST_MAX_TOKENS: '1000',
  SIS_ANALYST_MAX_SECONDS: '10',
  SIS_ANALYST_MAX_OUTPUT_TOKENS: '256',
  SIS_BEDROCK_TIMEOUT_SECONDS: '5',
  SIS_BEDROCK_MAX_ATTEMPTS: '2',
  SIS_CONSOLE_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
  SIS_CONSOLE_CLIENT_ID: 'client',
  SIS_CONSOLE_JWKS_URL: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123/.well-known/jwks.json',
  SIS_CONSOLE_USER_POOL_ID: 'eu-west-1_AbC123',
  SIS_CONSOLE_LOGIN_URL: 'https://acme.auth.eu-west-1.amazoncognito.com',
  SIS_CONSOLE_ADMIN_PASSWORD: 'admin-password',
  SIS_CONSOLE_ANALYST_PASSWORD: 'analyst-password',
  SIS_CURSOR_SECRET: 'c'.repeat(32),
  SIS_CURSOR_SECRET_PREVIOUS: 'p'.repeat(40),
  SIS_CONTACT_EMAIL: 'soc@acme.example',
  SIS_LEGAL_URL: 'https://acme.example/terms',
  SIS_INTEL_ABUSEIPDB_API_KEY: '  abuseipdb-key  ',
  SIS_INTEL_ABUSEIPDB_URL: 'https://abuseipdb.example',
  SIS_INTEL_ABUSEIPDB_ENABLED: 'true',
  SIS_INTEL_ABUSEIPDB_DAILY_QUOTA: '500',
  SIS_INTEL_INTERNETDB_ENABLED: '1',
  SIS_INTEL_MISP_API_KEY: 'misp-key-1234',
  SIS_INTEL_MISP_URL: 'https://misp.acme.example',
  SIS_INTEL_SECRET_ARN: 'arn:intel',
  SIS_INTEL_TIMEOUT_MS: '100',
  SIS_INTEL_RETRIES: '0',
  SIS_INTERNAL_SUFFIXES: ' .Corp.Example.com, @ad.example.net,, ',
  SOMETHING_ELSE: 'not a variable of the service',
};

describe('the configuration', () => {
  it('fails on a malformed value of every kind with the message of the whole schema, naming the variable', () => {
    for (const env of MALFORMED) {
      const [name] = Object.keys(env) as [string];
      const error = failure(env);
      expect(error.message, name).toBe(wholeSchemaMessage(env));
      expect(error.message, name).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
    }
  });

  it('names every malformed variable, in the order of the declaration, among valid ones', () => {
    const env = { ...EVERY_VARIABLE, SIS_CONTACT_EMAIL: 'soc', SIS_TENANT: 'ACME', SIS_INTEL_OTX_URL: 'otx' };
    const message = failure(env).message;
    expect(message).toBe(wholeSchemaMessage(env));
    expect(message).toMatch(
      /^Invalid configuration: SIS_TENANT: .*; SIS_CONTACT_EMAIL: .*; SIS_INTEL_OTX_URL: /,
    );
  });

  it('keeps the messages it had', () => {
    expect(failure({ SIS_SYNC_WAIT_SECONDS: '0' }).message).toBe(
      'Invalid configuration: SIS_SYNC_WAIT_SECONDS: Too small: expected number to be >=1',
    );
    expect(failure({ SIS_TENANT: 'Acme_Corp' }).message).toBe(
      'Invalid configuration: SIS_TENANT: lowercase letters, digits and dashes, at most 31 characters',
    );
    expect(failure({ SIS_PUBLIC_URL: 'not a url' }).message).toBe(
      'Invalid configuration: SIS_PUBLIC_URL: Invalid URL',
    );
    expect(failure({ SIS_CONTACT_EMAIL: 'security-operations' }).message).toBe(
      'Invalid configuration: SIS_CONTACT_EMAIL: Invalid email address',
    );
    expect(failure({ SIS_DEMO_DATA: 'yes', SIS_INTEL_OTX_ENABLED: 'TRUE' }).message).toBe(
      'Invalid configuration: SIS_DEMO_DATA: Invalid option: expected one of "0"|"1"|"true"|"false"; ' +
        'SIS_INTEL_OTX_ENABLED: Invalid option: expected one of "0"|"1"|"true"|"false"',
    );
  });

  it('reads every variable as the whole schema does, transforms and coercions included', () => {
    for (const env of [{}, EVERY_VARIABLE, { SIS_DEMO_DATA: 'false', SIS_INTERNAL_SUFFIXES: '' }]) {
      expect(parseConfig(env)).toStrictEqual(whole.parse(env));
    }
    const cfg = parseConfig(EVERY_VARIABLE);
    expect(cfg.SIS_DEMO_DATA).toBe(false);
    expect(cfg.SIS_INTEL_INTERNETDB_ENABLED).toBe(true);
    expect(cfg.SIS_DEFAULT_RATE_PER_SECOND).toBe(12.5);
    expect(cfg.SIS_INTEL_ABUSEIPDB_API_KEY).toBe('abuseipdb-key');
    expect(cfg.SIS_INTERNAL_SUFFIXES).toEqual(['corp.example.com', 'ad.example.net']);
    expect(cfg).not.toHaveProperty('SOMETHING_ELSE');
  });

  it('reads an unset variable as its default, or leaves it out', () => {
    const cfg = parseConfig({});
    expect(cfg.SIS_SYNC_WAIT_SECONDS).toBe(1860);
    expect(cfg.SIS_DEMO_DATA).toBe(true);
    expect(cfg.SIS_CONTACT_EMAIL).toBe('security-operations@example.com');
    expect(cfg).not.toHaveProperty('SIS_DYNAMODB_ENDPOINT');
    cfg.SIS_INTERNAL_SUFFIXES.push('mutated.example');
    expect(parseConfig({}).SIS_INTERNAL_SUFFIXES).toEqual([]);
  });

  it('validates each environment with its own variables, whatever was parsed before', () => {
    const valid = { SIS_KEYS_TABLE: 'acme-keys' };
    expect(parseConfig(valid).SIS_KEYS_TABLE).toBe('acme-keys');
    expect(() => parseConfig({ SIS_KEYS_TABLE: 'ab' })).toThrow('SIS_KEYS_TABLE');
    expect(() => parseConfig({ ...valid, SIS_SESSIONS_TABLE: 'ab' })).toThrow('SIS_SESSIONS_TABLE');
    expect(parseConfig(valid).SIS_SESSIONS_TABLE).toBe('sis-local-sessions');
  });

  it('checks the variables that depend on each other', () => {
    expect(failure({ SIS_ANALYST: 'bedrock' }).message).toBe(
      'Invalid configuration: SIS_BEDROCK_MODEL_ID: required when SIS_ANALYST=bedrock',
    );
    expect(failure({ SIS_BEDROCK_GUARDRAIL_ID: 'g1' }).message).toMatch(/must be set together/);
    expect(failure({ SIS_INTEL_OTX_ENABLED: 'true' }).message).toBe(
      'Invalid configuration: SIS_INTEL_OTX_ENABLED: otx needs a key: set SIS_INTEL_OTX_API_KEY (or SIS_INTEL_SECRET_ARN on AWS)',
    );
    expect(failure({ SIS_INTEL_MISP_API_KEY: 'misp-key-1234' }).message).toMatch(/SIS_INTEL_MISP_URL: MISP/);
    expect(parseConfig({ SIS_INTEL_OTX_ENABLED: 'true', SIS_INTEL_SECRET_ARN: 'arn:intel' })).toBeTruthy();
  });
});
