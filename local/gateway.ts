import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { errorBody, JSON_HEADERS } from '../shared/api/errors';
import { type RouteDefinition, servedPaths } from '../shared/api/route-types';
import { SECURITY_HEADERS } from '../shared/api/security-headers';
import {
  type ApiArnBase,
  type AuthorizerContext,
  methodArn,
  type PolicyDocument,
  policyAllows,
} from '../shared/domain/keys/policy';
import { localLambdaContext } from './lambda-context';

/**
 * A local stand-in for API Gateway (REST, v1 proxy events) driven by the same route table as the CDK
 * stack: it matches routes, runs the real authorizer with a REQUEST event, evaluates the returned
 * policy against the method ARN like API Gateway does, applies per-key rate limits, then invokes
 * the real handler module and writes its result back. Its own answers (unknown route, 401, 403,
 * 413, 429, 5xx) use the contract's error shape, as the stack's gateway responses do.
 */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds?: number;
}

export interface GatewayOptions {
  routes: readonly RouteDefinition[];
  loadHandler: (functionName: string) => Promise<ProxyHandler>;
  loadAuthorizer: () => Promise<AuthorizerHandler>;
  /** The console authorizer, for routes whose access kind is `console` (as the stack wires them). */
  loadConsoleAuthorizer?: () => Promise<AuthorizerHandler>;
  /** Other servers mounted under a path prefix (the local OpenID Connect issuer at `/oidc`). */
  mounts?: { prefix: string; handle: (req: IncomingMessage, res: ServerResponse) => void }[];
  arnBase: ApiArnBase;
  /** Per-key throttling, as a usage plan does on AWS; keyed by the authorizer's usageIdentifierKey. */
  rateLimit?: (identifier: string, context: AuthorizerContext) => RateLimitDecision;
  /** API Gateway's own payload cap; the handlers enforce the contract's smaller body limit. */
  maxPayloadBytes?: number;
  /** Lambda-like timeout per handler invocation. */
  onError?: (error: unknown, info: { requestId: string; stage: string }) => void;
}

interface CompiledRoute {
  route: RouteDefinition;
  template: string;
  pattern: RegExp;
  paramNames: string[];
}

function compile(routes: readonly RouteDefinition[]): CompiledRoute[] {
  return routes.flatMap((route) =>
    servedPaths(route).map((template) => {
      const paramNames: string[] = [];
      const source = template
        .split('/')
        .map((segment) => {
          const param = /^\{([^}]+)\}$/.exec(segment);
          if (param?.[1]) {
            paramNames.push(param[1]);
            return '([^/]+)';
          }
          return segment.replace(/[.+?^${}()|[\]\\*]/g, '\\$&');
        })
        .join('/');
      return { route, template, pattern: new RegExp(`^${source}/?$`), paramNames };
    }),
  );
}

class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let rejected = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes && !rejected) {
        rejected = true;
        reject(new GatewayError(413, 'payload_too_large', `The request body exceeds ${maxBytes} bytes.`));
        req.resume();
        return;
      }
      if (!rejected) chunks.push(chunk);
    });
    req.on('end', () => {
      if (!rejected) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

/**
 * Names are the client's (`__proto__` and `constructor` included), so values are gathered in Maps
 * and turned into plain objects with own properties only; assigning into `{}` would reach
 * Object.prototype.
 */
function toRecords(entries: Iterable<[string, string]>) {
  const single = new Map<string, string>();
  const multi = new Map<string, string[]>();
  for (const [name, value] of entries) {
    single.set(name, value); // API Gateway keeps the last value of a repeated header or parameter
    const existing = multi.get(name);
    if (existing) existing.push(value);
    else multi.set(name, [value]);
  }
  return {
    single: Object.fromEntries(single) as Record<string, string>,
    multi: Object.fromEntries(multi) as Record<string, string[]>,
    empty: single.size === 0,
  };
}

function headerMaps(req: IncomingMessage) {
  const pairs: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    pairs.push([req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '']);
  }
  const { single, multi } = toRecords(pairs);
  return { headers: single, multiValueHeaders: multi };
}

function queryMaps(url: URL) {
  const { single, multi, empty } = toRecords(url.searchParams);
  return { single: empty ? null : single, multi: empty ? null : multi };
}

/**
 * Locally a handler may run as long as the contract's synchronous wait (1860 s); on AWS Lambda's own
 * timeout bounds it and a synchronous start hands back the session to poll instead.
 */
export const LOCAL_HANDLER_DEADLINE_MS = 1_900_000;

function lambdaContext(functionName: string, requestId: string): Context {
  return localLambdaContext(functionName, LOCAL_HANDLER_DEADLINE_MS, requestId);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, error: GatewayError, requestId: string): void {
  const body = JSON.stringify(errorBody(error.code, error.message, requestId));
  // The same security headers as every handler answer (API Gateway's gateway responses carry them too).
  send(
    res,
    error.status,
    { ...JSON_HEADERS, ...SECURITY_HEADERS, 'x-request-id': requestId, ...error.headers },
    body,
  );
}

export function createGateway(options: GatewayOptions): Server {
  const compiled = compile(options.routes);
  const maxPayload = options.maxPayloadBytes ?? 10 * 1024 * 1024;

  async function authorize(
    match: CompiledRoute,
    event: APIGatewayProxyEvent,
    requestId: string,
  ): Promise<Record<string, unknown>> {
    const arn = methodArn(options.arnBase, match.route.method, event.path);
    const isConsole = match.route.access.kind === 'console';
    const authorizer =
      isConsole && options.loadConsoleAuthorizer
        ? await options.loadConsoleAuthorizer()
        : await options.loadAuthorizer();
    let result: APIGatewayAuthorizerResult;
    try {
      result = await authorizer({
        type: 'REQUEST',
        methodArn: arn,
        resource: event.resource,
        path: event.path,
        httpMethod: event.httpMethod,
        headers: event.headers,
        multiValueHeaders: event.multiValueHeaders,
        queryStringParameters: event.queryStringParameters,
        multiValueQueryStringParameters: event.multiValueQueryStringParameters,
        pathParameters: event.pathParameters,
        stageVariables: null,
        requestContext: event.requestContext,
      } as APIGatewayRequestAuthorizerEvent);
    } catch (error) {
      if (error instanceof Error && error.message === 'Unauthorized') {
        throw new GatewayError(
          401,
          'unauthorized',
          isConsole
            ? 'A valid console sign-in is required (Authorization: Bearer <ID token>).'
            : 'A valid API key is required in the X-API-Key header.',
        );
      }
      options.onError?.(error, { requestId, stage: 'authorizer' });
      // The key could not be checked (its store unreachable): a retryable refusal, as the stack's
      // AUTHORIZER_FAILURE gateway response answers; never a pass.
      throw new GatewayError(
        503,
        'service_unavailable',
        'The service is temporarily unavailable. Retry shortly.',
      );
    }
    if (!policyAllows(result.policyDocument as PolicyDocument, arn)) {
      throw new GatewayError(
        403,
        'forbidden',
        isConsole
          ? 'Your console role does not allow this operation.'
          : 'This API key is not allowed to call this operation.',
      );
    }
    const context = (result.context ?? {}) as Record<string, unknown>;
    if (options.rateLimit && result.usageIdentifierKey) {
      const decision = options.rateLimit(result.usageIdentifierKey, context as unknown as AuthorizerContext);
      if (!decision.allowed) {
        throw new GatewayError(429, 'rate_limited', 'Too many requests for this API key. Retry later.', {
          'retry-after': String(decision.retryAfterSeconds ?? 1),
        });
      }
    }
    return { ...context, principalId: result.principalId };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    let url: URL;
    try {
      // Prefixing (rather than resolving against a base) keeps `//x` a path, not a host.
      url = new URL(`http://localhost${req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`}`);
    } catch {
      throw new GatewayError(400, 'bad_request', 'The request target is not a valid path.');
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const mount = options.mounts?.find(
      (m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`),
    );
    if (mount) {
      mount.handle(req, res);
      return;
    }
    const pathMatches = compiled.filter((c) => c.pattern.test(url.pathname));
    const match = pathMatches.find((c) => c.route.method === method);
    if (!match) {
      throw new GatewayError(404, 'not_found', `No route for ${method} ${url.pathname}.`);
    }
    const body = await readBody(req, maxPayload);
    const values = match.pattern.exec(url.pathname)?.slice(1) ?? [];
    const pathParameters: Record<string, string> = {};
    match.paramNames.forEach((name, i) => {
      try {
        pathParameters[name] = decodeURIComponent(values[i] ?? '');
      } catch {
        throw new GatewayError(
          400,
          'validation_error',
          `The path parameter ${name} is not valid percent-encoding.`,
        );
      }
    });
    const { headers, multiValueHeaders } = headerMaps(req);
    const query = queryMaps(url);
    const event: APIGatewayProxyEvent = {
      resource: match.template,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: query.single,
      multiValueQueryStringParameters: query.multi,
      pathParameters: match.paramNames.length ? pathParameters : null,
      stageVariables: null,
      body: body.length ? body.toString('utf8') : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: options.arnBase.accountId,
        apiId: options.arnBase.apiId,
        stage: options.arnBase.stage,
        requestId,
        requestTimeEpoch: Date.now(),
        resourcePath: match.template,
        resourceId: match.template,
        path: url.pathname,
        httpMethod: method,
        protocol: 'HTTP/1.1',
        authorizer: null,
        identity: {
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
          userAgent: headers['User-Agent'] ?? null,
        },
      } as unknown as APIGatewayProxyEvent['requestContext'],
    };
    if (match.route.access.kind !== 'public') {
      event.requestContext.authorizer = await authorize(match, event, requestId);
    }
    const handler = await options.loadHandler(match.route.functionName);
    let result: APIGatewayProxyResult;
    try {
      result = await handler(event, lambdaContext(match.route.functionName, requestId));
    } catch (error) {
      options.onError?.(error, { requestId, stage: match.route.functionName });
      throw new GatewayError(502, 'internal_error', 'An internal error occurred.');
    }
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
    send(res, result.statusCode, responseHeaders, result.body ?? '');
  }

  const server = createServer((req, res) => {
    const requestId = randomUUID();
    handle(req, res, requestId).catch((error: unknown) => {
      if (error instanceof GatewayError) return sendError(res, error, requestId);
      options.onError?.(error, { requestId, stage: 'gateway' });
      sendError(res, new GatewayError(500, 'internal_error', 'An internal error occurred.'), requestId);
    });
  });
  // A synchronous investigation may hold a request open for up to 1860 s (DESIGN.md); Node's defaults
  // would cut it at 300 s (requestTimeout) or on socket inactivity.
  server.requestTimeout = LOCAL_HANDLER_DEADLINE_MS;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  server.timeout = LOCAL_HANDLER_DEADLINE_MS;
  return server;
}
