import { randomBytes } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { expect } from 'vitest';
import { type LocalService, type LocalServiceOptions, startLocalService } from '../../local/service';
import type { NewKeyInput } from '../../shared/domain/keys/key-lifecycle';
import { SCOPES } from '../../shared/domain/keys/scopes';
import { apiKeyService } from '../../shared/services/auth/api-keys';
import { dynamodbEndpoint } from './dynamodb';
import { publishedDocumentValidator } from './openapi-response-validator';

export interface HttpAnswer<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface TestService extends LocalService {
  /** An admin key created the way `sis admin bootstrap` does. */
  adminKey: string;
  /** Creates a key directly through the key service (as an admin would over HTTP). */
  createKey(input?: Partial<NewKeyInput>): Promise<{ keyId: string; apiKey: string }>;
  /** Calls the service over HTTP; throws OpenApiDriftError when the answer does not match /openapi.json. */
  call<T = any>(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<HttpAnswer<T>>;
}

const TEST_KEY_RATE_LIMIT = { rate_per_second: 200, burst: 400 };

/**
 * The whole local runtime (gateway, real handlers, real authorizer, local workflow and queue) on a
 * free port, on its own tables in the run's shared DynamoDB Local. One per test file: handlers read
 * their configuration from process.env, which each vitest worker has to itself.
 */
export async function startTestService(
  options: {
    env?: Record<string, string>;
    staleSessionSweep?: LocalServiceOptions['staleSessionSweep'];
    /** Reuse tables (a restart); default: fresh ones. */
    tablePrefix?: string;
    /** DynamoDB through this endpoint (e.g. a metering hop in front of the shared DynamoDB Local). */
    dynamodbEndpoint?: string;
    stepFunctions?: LocalServiceOptions['stepFunctions'];
  } = {},
): Promise<TestService> {
  const service = await startLocalService({
    port: 0,
    dynamodb: { endpoint: options.dynamodbEndpoint ?? dynamodbEndpoint() },
    tablePrefix: options.tablePrefix ?? `sis-t${randomBytes(5).toString('hex')}`,
    env: { SIS_DEMO_DATA: '0', ...options.env },
    ...(options.staleSessionSweep !== undefined ? { staleSessionSweep: options.staleSessionSweep } : {}),
    ...(options.stepFunctions ? { stepFunctions: options.stepFunctions } : {}),
  });
  const keys = apiKeyService();
  // Test keys are generous unless a test sets its own limits: tests poll every 100 ms while they
  // start runs, and on a slow CI machine the default burst of 20 answered 429 where a test expected
  // 202. The rate-limit tests (keys-http-lifecycle, local-gateway-contract) pass rate_limit.
  const createKey = async (input: Partial<NewKeyInput> = {}) => {
    const issued = await keys.create(
      { name: 'test key', scopes: [...SCOPES], rate_limit: TEST_KEY_RATE_LIMIT, ...input },
      'test-suite',
    );
    return { keyId: issued.summary.key_id, apiKey: issued.apiKey };
  };
  const admin = await createKey({ name: 'test admin', role: 'admin', scopes: [] });

  const call: TestService['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers['x-api-key'] = opts.key;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await undiciRequest(`${service.baseUrl}${path}`, {
      method: method as 'GET',
      headers,
      body,
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // non-JSON bodies (YAML, SVG) stay as text
    }
    // Every answer must match the published OpenAPI document, so the document cannot drift from the code.
    publishedDocumentValidator().assert({
      method,
      path,
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      body: parsed,
    });
    return { status: response.statusCode, headers: response.headers, body: parsed as never, text };
  };

  return { ...service, adminKey: admin.apiKey, createKey, call };
}

/** The contract's error shape, for `expect(...).toMatchObject`. */
export function errorShape(code: string) {
  return { error: { code, message: expect.any(String), request_id: expect.any(String) } };
}
