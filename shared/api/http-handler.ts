import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config } from '../config';
import {
  ForbiddenError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../domain/core/errors';
import { type Caller, type ConsoleUser, callerMayAccess, isScope, type KeyRole } from '../domain/keys/scopes';
import { flushMetrics, logger } from '../observability';
import * as z from '../zod';
import { errorBody, jsonResponse, toErrorResult, zodToValidationError } from './errors';
import { type RouteDefinition, servedPaths } from './route-types';
import { type SecurityHeaderOptions, securityHeadersMiddleware } from './security-headers';

type Infer<T> = T extends z.core.$ZodType ? z.output<T> : undefined;

export interface HttpRequest<R extends RouteDefinition> {
  params: Infer<R['request']['params']>;
  query: Infer<R['request']['query']>;
  body: Infer<R['request']['body']>;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /** The authenticated caller; present on every non-public route. */
  caller: R['access']['kind'] extends 'public' ? Caller | undefined : Caller;
  requestId: string;
  event: APIGatewayProxyEvent;
  /** The Lambda context (remaining time bounds a synchronous wait). */
  context: Context;
}

export interface HttpResult {
  statusCode: number;
  body?: unknown;
  /** A pre-serialised body (e.g. YAML); its content-type goes in `headers`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

function requestIdOf(event: APIGatewayProxyEvent, context: Context | undefined): string {
  return event.requestContext?.requestId ?? context?.awsRequestId ?? 'unknown';
}

/** API Gateway passes the authorizer context as flat strings. */
export function callerFromEvent(event: APIGatewayProxyEvent): Caller | undefined {
  const authorizer = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const keyId = authorizer?.keyId;
  if (typeof keyId !== 'string' || keyId.length === 0) return undefined;
  if (authorizer?.principalKind === 'user') return consoleCallerFromContext(keyId, authorizer);
  const role: KeyRole = authorizer?.role === 'admin' ? 'admin' : 'client';
  const scopes = String(authorizer?.scopes ?? '')
    .split(',')
    .filter(isScope);
  const keyName =
    typeof authorizer?.keyName === 'string' && authorizer.keyName ? authorizer.keyName : undefined;
  return { keyId, role, scopes, ...(keyName ? { keyName } : {}) };
}

/** A person signed in to the console (context set by the console authorizer). */
function consoleCallerFromContext(keyId: string, authorizer: Record<string, unknown>): Caller | undefined {
  const role = authorizer.consoleRole;
  if (role !== 'admin' && role !== 'analyst') return undefined;
  const email = typeof authorizer.email === 'string' && authorizer.email ? authorizer.email : undefined;
  const user: ConsoleUser = {
    sub: String(authorizer.sub ?? ''),
    username: String(authorizer.username ?? ''),
    ...(email ? { email } : {}),
    role,
    groups: String(authorizer.groups ?? '')
      .split(',')
      .filter(Boolean),
  };
  return { keyId, role: 'client', scopes: [], user, tenantWide: true };
}

function parseJsonBody(event: APIGatewayProxyEvent, maxBytes: number): unknown {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(raw, 'utf8') > maxBytes) {
    throw new PayloadTooLargeError(`The request body exceeds the limit of ${maxBytes} bytes.`);
  }
  const contentType = event.headers?.['content-type'] ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType)) {
    throw new UnsupportedMediaTypeError(
      'The request body must be JSON, sent with Content-Type: application/json.',
    );
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new ValidationError('The request body is not valid JSON.');
  }
}

/** Validates path, query and body together so a client learns every bad field in one answer. */
function validateAll(
  route: RouteDefinition,
  inputs: { path: unknown; query: unknown; body: unknown },
): { path: unknown; query: unknown; body: unknown } {
  const schemas = { path: route.request.params, query: route.request.query, body: route.request.body };
  const output: Record<string, unknown> = {};
  const failures: ValidationError[] = [];
  for (const location of ['path', 'query', 'body'] as const) {
    const schema = schemas[location];
    if (!schema) continue;
    const result = z.safeParse(schema, inputs[location]);
    if (result.success) output[location] = result.data;
    else failures.push(zodToValidationError(result.error, location));
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) {
    const details = failures.flatMap((f) => f.details ?? []);
    throw new ValidationError(
      failures.map((f) => f.message.replace(/^Invalid request\. /, '')).join('; '),
      details,
    );
  }
  return output as { path: unknown; query: unknown; body: unknown };
}

const errorMapper = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    const requestId = requestIdOf(request.event, request.context);
    const { status, body, expected } = toErrorResult(request.error, requestId);
    if (expected) logger.info('request rejected', { status, code: body.error.code });
    else logger.error('request failed', { status, error: request.error as Error });
    const retryAfter =
      request.error instanceof RateLimitedError ? request.error.retryAfterSeconds : undefined;
    request.response = jsonResponse(status, body, {
      'x-request-id': requestId,
      ...(retryAfter !== undefined ? { 'retry-after': String(Math.max(1, Math.ceil(retryAfter))) } : {}),
    });
  },
});

/** Publishes the metrics a route recorded (EMF), after the response or the error is built. */
const metricsFlush = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  after: async () => flushMetrics(),
  onError: async () => flushMetrics(),
});

const requestLogging = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    logger.resetKeys();
    const caller = callerFromEvent(request.event);
    logger.appendKeys({
      request_id: requestIdOf(request.event, request.context),
      ...(caller ? { key_id: caller.keyId } : {}),
      ...(request.event.pathParameters?.session_id
        ? { session_id: request.event.pathParameters.session_id }
        : {}),
    });
  },
});

/**
 * Wraps a route's business function in the one middleware stack every HTTP function uses: header
 * normalisation, request logging context, body size/content-type/JSON checks, zod validation of
 * path, query and body against the route's schemas, the error mapper and security headers.
 */
export function httpHandler<R extends RouteDefinition>(
  route: R,
  handle: (request: HttpRequest<R>) => Promise<HttpResult>,
  options: { securityHeaders?: SecurityHeaderOptions } = {},
) {
  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const requestId = requestIdOf(event, context);
    const caller = callerFromEvent(event);
    if (route.access.kind !== 'public' && !caller) {
      // The authorizer guarantees a caller; reaching here means the gateway was misconfigured.
      throw new UnauthorizedError('Authentication is required.');
    }
    // Defence in depth: the gateway's policy already enforces this; a misconfigured stage must not
    // let a key past its scopes.
    if (caller && !callerMayAccess(caller, route.access)) {
      throw new ForbiddenError('This API key is not allowed to call this operation.');
    }
    const parsedBody = route.request.body ? parseJsonBody(event, config().SIS_MAX_BODY_BYTES) : undefined;
    type Req = HttpRequest<R>;
    const valid = validateAll(route, {
      path: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      body: parsedBody ?? {},
    });
    const request: Req = {
      params: valid.path as Req['params'],
      query: valid.query as Req['query'],
      body: valid.body as Req['body'],
      headers: (event.headers ?? {}) as Record<string, string | undefined>,
      caller: caller as Req['caller'],
      requestId,
      event,
      context,
    };
    const result = await handle(request);
    if (result.rawBody !== undefined) {
      return {
        statusCode: result.statusCode,
        headers: { 'x-request-id': requestId, ...result.headers },
        body: result.rawBody,
      };
    }
    return jsonResponse(result.statusCode, result.body ?? {}, {
      'x-request-id': requestId,
      ...result.headers,
    });
  };

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>(core)
    .use(metricsFlush())
    .use(httpHeaderNormalizer())
    .use(requestLogging())
    .use(securityHeadersMiddleware(options.securityHeaders))
    .use(errorMapper());
}

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * One function for twin routes of the same operation (the API's and the console's, which differ only in
 * who may call them): each keeps its own httpHandler (its access check and schemas), chosen by the
 * method and the resource path API Gateway (and the local gateway) passes. A stack holds at most 500
 * resources, and each function brings five (function, role, log group, metric filter, permission).
 */
export function twinRouteHandler(
  ...twins: ReadonlyArray<{ route: RouteDefinition; handler: ProxyHandler }>
): ProxyHandler {
  return async (event, context) => {
    const twin = twins.find(
      ({ route }) => route.method === event.httpMethod && servedPaths(route).includes(event.resource),
    );
    if (!twin) {
      const requestId = requestIdOf(event, context);
      return jsonResponse(404, errorBody('not_found', 'No such route.', requestId), {
        'x-request-id': requestId,
      });
    }
    return twin.handler(event, context);
  };
}
