import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { httpHandler } from '../../../shared/api/http-handler';
import { defineRoute } from '../../../shared/api/route-types';
import {
  PERMISSIONS_POLICY_FEATURES,
  permissionsPolicy,
  SECURITY_HEADERS,
} from '../../../shared/api/security-headers';
import { ConflictError } from '../../../shared/domain/core/errors';
import * as z from '../../../shared/zod';

const echoRoute = defineRoute({
  operationId: 'echo',
  method: 'POST',
  path: '/api/v1/echo/{id}',
  access: { kind: 'scope', scope: 'investigations:write' },
  functionName: 'echo',
  summary: 'echo',
  description: 'test route',
  tags: ['test'],
  request: {
    params: z.object({ id: z.string().check(z.regex(/^[a-z]+$/)) }),
    query: z.object({ limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20) }),
    body: z.object({ name: z.string().check(z.minLength(1)) }),
  },
  responses: { 200: { description: 'ok' } },
});

const echo = httpHandler(echoRoute, async (req) => {
  if (req.body.name === 'conflict') throw new ConflictError('Already finished.');
  if (req.body.name === 'crash') throw new Error('secret internal detail at table sis-acme-keys');
  return {
    statusCode: 200,
    body: { id: req.params.id, limit: req.query.limit, name: req.body.name, key: req.caller.keyId },
  };
});

function event(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: '/api/v1/echo/{id}',
    path: '/api/v1/echo/abc',
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id: 'abc' },
    stageVariables: null,
    body: JSON.stringify({ name: 'x' }),
    isBase64Encoded: false,
    requestContext: {
      requestId: 'req-1',
      authorizer: { keyId: 'key1', role: 'client', scopes: 'investigations:write' },
    } as unknown as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  };
}

const context = { awsRequestId: 'aws-req' } as Context;

async function call(e: APIGatewayProxyEvent) {
  const result = await echo(e, context);
  return { status: result.statusCode, body: JSON.parse(result.body), headers: result.headers ?? {} };
}

describe('the HTTP handler stack', () => {
  it('passes validated, coerced input and the caller to the business function', async () => {
    const res = await call(event({ queryStringParameters: { limit: '5' } }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'abc', limit: 5, name: 'x', key: 'key1' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('answers malformed JSON with 400 in the contract shape', async () => {
    const res = await call(event({ body: '{"name": ' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        code: 'validation_error',
        message: expect.stringMatching(/not valid JSON/),
        request_id: 'req-1',
      },
    });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await call(event({ body: JSON.stringify({ name: 'x'.repeat(1_100_000) }) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await call(event({ headers: { 'Content-Type': 'text/plain' } }));
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
  });

  it('names every failing field with its location', async () => {
    const res = await call(
      event({
        pathParameters: { id: 'ABC1' },
        queryStringParameters: { limit: '500' },
        body: JSON.stringify({}),
      }),
    );
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['path.id', 'query.limit', 'body.name']));
  });

  it('maps typed domain errors to their status', async () => {
    const res = await call(event({ body: JSON.stringify({ name: 'conflict' }) }));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', message: 'Already finished.' });
  });

  it('hides the details of unexpected failures behind a generic 500', async () => {
    const res = await call(event({ body: JSON.stringify({ name: 'crash' }) }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: { code: 'internal_error', message: 'An internal error occurred.', request_id: 'req-1' },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/sis-acme|secret|at /);
  });

  it('refuses a protected route without an authorizer context', async () => {
    const e = event();
    e.requestContext.authorizer = null;
    const res = await call(e);
    expect(res.status).toBe(401);
  });

  it('adds security headers to every response', async () => {
    const res = await call(event());
    expect(
      res.headers['Strict-Transport-Security'] ?? res.headers['strict-transport-security'],
    ).toBeDefined();
  });

  it('turns off only the Permissions-Policy features browsers recognise, on answers and errors alike', async () => {
    for (const name of ['x', 'conflict', 'crash']) {
      const res = await call(event({ body: JSON.stringify({ name }) }));
      const policy = String(res.headers['Permissions-Policy']);
      expect(policy.split(', ').map((entry) => entry.split('=')[0])).toEqual([
        ...PERMISSIONS_POLICY_FEATURES,
      ]);
      expect(policy).toContain('camera=()');
      // Names of the middleware's default list that Chromium logs "Unrecognized feature" for.
      for (const dropped of ['battery', 'document-domain', 'window-placement', 'vertical-scroll']) {
        expect(policy).not.toContain(dropped);
      }
    }
    expect(permissionsPolicy({ 'clipboard-write': 'self' })).toContain('clipboard-write=(self), ');
    expect(SECURITY_HEADERS['Permissions-Policy']).toBe(permissionsPolicy());
  });
});

describe('defence in depth behind the gateway', () => {
  it('refuses a caller whose scopes do not cover the route even if the gateway let it through', async () => {
    const e = event();
    e.requestContext.authorizer = { keyId: 'key1', role: 'client', scopes: 'graph:read' };
    const res = await call(e);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});
