import { Agent, request } from 'node:http';
import { expect } from 'vitest';

/**
 * A deliberately low-level HTTP client for the adversarial suites: the path goes on the wire exactly
 * as given (no URL normalisation of `..` or percent sequences), a header given as an array is sent
 * once per value (duplicate headers), and the body is sent byte for byte with whatever content type
 * the test chose. Only 127.0.0.1 is ever addressed.
 */
export interface RawRequest {
  method: string;
  /** Path and query exactly as they go on the wire. */
  path: string;
  /** A flat `[name, value, name, value…]` list keeps names exactly as spelled (case variants). */
  headers?: Record<string, string | string[]> | string[];
  body?: string | Buffer;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: any;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function withLength(req: RawRequest, host: string): Record<string, string | string[]> | string[] {
  const length = req.body !== undefined ? String(Buffer.byteLength(req.body)) : undefined;
  // Node adds neither Host nor Content-Length to a raw header list.
  if (Array.isArray(req.headers)) {
    return ['host', host, ...req.headers, ...(length ? ['content-length', length] : [])];
  }
  return { ...(length ? { 'content-length': length } : {}), ...req.headers };
}

export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`refusing to send test traffic to ${url.hostname}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: Number(url.port),
        method: req.method,
        path: req.path,
        // An explicit length: Node sends a DELETE or OPTIONS body without one, which is not HTTP.
        headers: withLength(req, url.host),
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json,
            ms: performance.now() - started,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** JSON convenience over {@link rawRequest}: key in X-API-Key, body serialised with a JSON content type. */
export function jsonCall(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string | string[]> } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return rawRequest(baseUrl, { method, path, headers, ...(body !== undefined ? { body } : {}) });
}

/**
 * What no answer may contain: stack frames and source paths (any answer), and in error answers
 * also internal error class names, AWS or DynamoDB vocabulary and this run's physical table names.
 * Generated inputs never contain these tokens (see fuzz-inputs.ts), so an echo cannot raise a false
 * alarm.
 */
export const STACK_PATTERNS: readonly RegExp[] = [
  /\bat [^\s()]+ \([^)]*:\d+:\d+\)/, // "at fn (file:line:col)"
  /\n\s*at [^\n]*:\d+:\d+/, // an indented frame
  /(?:\/work\/|\/home\/|\/tmp\/|node_modules|file:\/\/)/,
  /\.(?:ts|js|mjs|cjs):\d+/,
];

export const INTERNAL_NAME_PATTERNS: readonly RegExp[] = [
  /\b\w*Error:/,
  /\bsis-t[0-9a-f]{10}\b/,
  /\bsis-local-(?:keys|sessions|graph|incidents)\b/,
  /DynamoDB|ConditionalCheckFailed|ResourceNotFound|ProvisionedThroughput|ValidationException|Throttling/,
  /ZodError|TypeError|RangeError|SyntaxError|URIError|ReferenceError|InjectedFault|ECONNREFUSED/,
  /arn:aws:/,
];

export function leaksIn(text: string, isError: boolean): string[] {
  const patterns = isError ? [...STACK_PATTERNS, ...INTERNAL_NAME_PATTERNS] : STACK_PATTERNS;
  return patterns.filter((pattern) => pattern.test(text)).map(String);
}

/** The contract's error body: `{error: {code, message, request_id}}` with non-empty strings. */
export function isContractError(json: unknown): boolean {
  const error = (json as { error?: Record<string, unknown> } | undefined)?.error;
  return (
    !!error &&
    typeof error.code === 'string' &&
    error.code.length > 0 &&
    typeof error.message === 'string' &&
    error.message.length > 0 &&
    typeof error.request_id === 'string' &&
    error.request_id.length > 0
  );
}

/** A JSON-RPC 2.0 error response: `{jsonrpc: "2.0", error: {code: integer, message}, id}`. */
export function isJsonRpcError(json: unknown): boolean {
  const body = json as { jsonrpc?: unknown; error?: Record<string, unknown> } | undefined;
  const error = body?.error;
  return (
    body?.jsonrpc === '2.0' &&
    !!error &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string' &&
    error.message.length > 0 &&
    'id' in body
  );
}

/** The MCP endpoint (docs/mcp.md), which answers in JSON-RPC once the gateway has let a request in. */
export const MCP_PATH = '/api/v1/mcp';

export function isMcpPath(path: string): boolean {
  return (path.split('?')[0] ?? path) === MCP_PATH;
}

/**
 * An answer of the MCP endpoint: below 500, nothing internal, and an error either in the contract
 * shape (the gateway's refusals before any JSON-RPC: 401, 403, 413, 415, 429) or a JSON-RPC error
 * (the protocol's own: a malformed message, 405 for GET and DELETE, 406 for a missing Accept).
 */
export function expectCleanMcpAnswer(answer: RawAnswer, label: string): void {
  expect(answer.status, `${label} → ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(
      isContractError(answer.json) || isJsonRpcError(answer.json),
      `${label}: error shape of ${answer.text.slice(0, 300)}`,
    ).toBe(true);
    expect(String(answer.headers['content-type']), label).toMatch(/^application\/json/);
  }
  expect(
    leaksIn(answer.text, answer.status >= 400),
    `${label}: leaks in ${answer.text.slice(0, 500)}`,
  ).toEqual([]);
}

/** Every answer: below 500, errors in the contract shape with a JSON content type, nothing internal. */
export function expectCleanAnswer(answer: RawAnswer, label: string): void {
  expect(answer.status, `${label} → ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(isContractError(answer.json), `${label}: error shape of ${answer.text.slice(0, 300)}`).toBe(true);
    expect(String(answer.headers['content-type']), label).toMatch(/^application\/json/);
  }
  expect(
    leaksIn(answer.text, answer.status >= 400),
    `${label}: leaks in ${answer.text.slice(0, 500)}`,
  ).toEqual([]);
}

/** Runs `tasks` with at most `limit` in flight; results in task order. */
export async function withConcurrency<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    for (;;) {
      const index = next++;
      if (index >= tasks.length) return;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  });
  await Promise.all(workers);
  return results;
}
