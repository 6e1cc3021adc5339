import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CliError, EXIT, UsageError } from './errors';
import { OPERATIONS, type operations } from './generated/api';
import { CLI_VERSION } from './version';

/**
 * The only way the CLI talks to the service: operations of the published OpenAPI document, typed by
 * the generated file. node:http rather than fetch, because a synchronous start may legitimately hold
 * the connection for up to 1860 s and fetch gives up on headers after 300 s.
 */

export type OperationId = keyof typeof OPERATIONS & keyof operations;

type Parameters<O extends OperationId> = operations[O]['parameters'];
type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type RequestBody<O extends OperationId> = operations[O] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type SuccessStatus<O extends OperationId> = Extract<keyof operations[O]['responses'], 200 | 201 | 202>;

export type SuccessBody<O extends OperationId, S extends SuccessStatus<O> = SuccessStatus<O>> = JsonContent<
  operations[O]['responses'][S]
>;

export interface CallInput<O extends OperationId> {
  path?: NonNullable<Parameters<O>['path']>;
  query?: NonNullable<Parameters<O>['query']>;
  body?: RequestBody<O>;
  /** Milliseconds the whole exchange may take (default 60 s). */
  timeoutMs?: number;
}

export interface Answer<O extends OperationId> {
  status: SuccessStatus<O>;
  body: SuccessBody<O>;
}

export interface Target {
  apiUrl: string;
  apiKey: string | undefined;
}

/** An error answer of the service, with what the document says about the operation. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly operationId: OperationId,
    readonly status: number,
    readonly code: string,
    readonly serverMessage: string,
    readonly requestId: string | undefined,
    readonly retryAfterSeconds: number | undefined,
    readonly details: { path: string; message: string }[],
  ) {
    super(`${status} ${code}: ${serverMessage}`);
  }
}

export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url}: ${reason}`);
  }
}

function buildUrl(base: string, template: string, path: object | undefined, query: object | undefined): URL {
  const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = (path as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === '') throw new UsageError(`Missing ${name}.`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(`${base.replace(/\/+$/, '')}${filled}`);
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  return url;
}

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<RawAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => reject(new NetworkError(url.origin, error.message)));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(new NetworkError(`${url.origin}${url.pathname}`, error.code ?? error.message)),
    );
    req.end(body);
  });
}

/** A GET of any URL without a key (manifests, pages, the URLs they publish): status and text. */
export async function getText(
  url: string,
  timeoutMs = 30_000,
): Promise<{ status: number; text: string; contentType: string }> {
  const raw = await exchange(
    new URL(url),
    'GET',
    { 'user-agent': `sis-cli/${CLI_VERSION}` },
    undefined,
    timeoutMs,
  );
  return { status: raw.status, text: raw.text, contentType: String(raw.headers['content-type'] ?? '') };
}

export class ApiClient {
  constructor(private readonly target: Target) {}

  get apiUrl(): string {
    return this.target.apiUrl;
  }

  async call<O extends OperationId>(operationId: O, input: CallInput<O> = {}): Promise<Answer<O>> {
    const operation = OPERATIONS[operationId];
    const url = buildUrl(this.target.apiUrl, operation.path, input.path, input.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `sis-cli/${CLI_VERSION}`,
    };
    if (operation.access.kind !== 'public') {
      if (!this.target.apiKey) {
        throw new CliError(
          'No API key: set SIS_API_KEY, pass --api-key-stdin, or save a profile with `sis configure`.',
          EXIT.auth,
        );
      }
      headers['x-api-key'] = this.target.apiKey;
    }
    let payload: string | undefined;
    if (input.body !== undefined) {
      payload = JSON.stringify(input.body);
      headers['content-type'] = 'application/json';
    }
    const raw = await exchange(url, operation.method, headers, payload, input.timeoutMs ?? 60_000);
    let parsed: unknown;
    try {
      parsed = raw.text ? JSON.parse(raw.text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (raw.status >= 200 && raw.status < 300) {
      if (parsed === undefined && raw.status !== 204) {
        throw new CliError(`${url.origin}${url.pathname} answered ${raw.status} without a JSON body.`);
      }
      return { status: raw.status as SuccessStatus<O>, body: parsed as SuccessBody<O> };
    }
    const error = (parsed as { error?: Record<string, unknown> } | undefined)?.error ?? {};
    const retryAfter = Number.parseInt(String(raw.headers['retry-after'] ?? ''), 10);
    throw new ApiError(
      operationId,
      raw.status,
      typeof error.code === 'string' ? error.code : `http_${raw.status}`,
      typeof error.message === 'string' ? error.message : `HTTP ${raw.status}`,
      typeof error.request_id === 'string' ? error.request_id : undefined,
      Number.isFinite(retryAfter) ? retryAfter : undefined,
      Array.isArray(error.details) ? (error.details as { path: string; message: string }[]) : [],
    );
  }
}

/** Turns an API or network failure into the one line (and exit code) the user sees. */
export function describeFailure(error: ApiError | NetworkError): CliError {
  if (error instanceof NetworkError) {
    return new CliError(
      `Could not reach the service at ${error.url} (${error.reason}); check SIS_API_URL or the profile's api_url.`,
    );
  }
  const quote = error.requestId ? ` (request ${error.requestId})` : '';
  switch (error.status) {
    case 400: {
      // One message per field: zod and the service's own rules can both refuse a field (an empty
      // entity is "too small" and "must not be empty"), which read as the same error twice.
      const firstPerField = new Map<string, string>();
      for (const d of error.details) if (!firstPerField.has(d.path)) firstPerField.set(d.path, d.message);
      const details = [...firstPerField].map(([path, message]) => `${path}: ${message}`).join('; ');
      return new CliError(`Invalid request: ${details || error.serverMessage}`, EXIT.usage);
    }
    case 401:
      return new CliError(
        'The API key was refused: it is unknown, expired or disabled. Use a valid key (SIS_API_KEY, --api-key-stdin or `sis configure`).',
        EXIT.auth,
      );
    case 403: {
      const access = OPERATIONS[error.operationId].access;
      if (/own/i.test(error.serverMessage)) {
        return new CliError(
          `${error.serverMessage} Only the key that started a session can read or cancel it; use that key.`,
          EXIT.auth,
        );
      }
      if (access.kind === 'admin') {
        return new CliError(
          `This API key is not an admin key; ${error.operationId} needs an admin key.`,
          EXIT.auth,
        );
      }
      if (access.kind === 'scope') {
        return new CliError(
          `This API key lacks the scope ${access.scope}, which ${error.operationId} needs; ask an administrator for a key with it.`,
          EXIT.auth,
        );
      }
      return new CliError(`Forbidden: ${error.serverMessage}`, EXIT.auth);
    }
    case 404:
      return new CliError(`Not found: ${error.serverMessage}`, EXIT.notFound);
    case 409:
      return new CliError(`Refused: ${error.serverMessage}`);
    case 429:
      return new CliError(
        `Rate limit reached: wait ${error.retryAfterSeconds ?? 1} s and try again (${error.serverMessage}).`,
      );
    default:
      return error.status >= 500
        ? new CliError(
            `The service failed (HTTP ${error.status})${quote}; retry shortly, or quote the request ID to its operator.`,
          )
        : new CliError(`HTTP ${error.status}: ${error.serverMessage}${quote}`);
  }
}
