import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as getReport } from '../../../functions/get-investigation-report/handler';
import { handler as health } from '../../../functions/health/handler';
import { buildOpenApiDocument } from '../../../shared/api/openapi';
import { RESPONSE_SCHEMAS } from '../../../shared/api/response-schemas';
import { ROUTES } from '../../../shared/api/routes';
import { HealthResponse } from '../../../shared/api/schemas/meta';
import * as z from '../../../shared/zod';
import {
  OpenApiResponseValidator,
  publishedDocumentValidator,
} from '../../support/openapi-response-validator';

/** Real answers of real handlers, invoked in-process the way API Gateway invokes them. */
async function invoke(
  fn: (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>,
  path: string,
  pathParameters: Record<string, string> | null = null,
) {
  const result = (await fn(
    {
      resource: path,
      path,
      httpMethod: 'GET',
      headers: {},
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {
        requestId: 'req-validator',
        authorizer: { keyId: 'k7q2m4x6c3v5b6n2', role: 'client', scopes: 'investigations:read' },
      } as unknown as APIGatewayProxyEvent['requestContext'],
    } as APIGatewayProxyEvent,
    { awsRequestId: 'aws-validator' } as Context,
  )) as { statusCode: number; headers?: Record<string, string>; body: string };
  return {
    method: 'GET',
    path,
    status: result.statusCode,
    contentType: result.headers?.['content-type'],
    body: JSON.parse(result.body) as unknown,
  };
}

/** The document with one route's success schema replaced: a zod change the handler never saw. */
function withResponseSchema(operationId: string, status: number, schema: z.core.$ZodType) {
  const name = ROUTES.find((route) => route.operationId === operationId)?.responses[status]?.schema;
  if (!name) throw new Error(`${operationId} has no ${status} schema`);
  const document = buildOpenApiDocument(ROUTES, {
    serverUrl: 'http://127.0.0.1',
    view: 'full',
    responseSchemas: { ...RESPONSE_SCHEMAS, [name]: schema },
  });
  return new OpenApiResponseValidator(document as never);
}

describe('the OpenAPI response validator', () => {
  const published = publishedDocumentValidator();

  it('accepts the real health answer and a real validation error against the published document', async () => {
    expect(published.check(await invoke(health, '/health'))).toEqual({ ok: true, operationId: 'getHealth' });
    const invalid = await invoke(getReport, '/api/v1/sessions/x', { session_id: 'x' });
    expect(invalid.status).toBe(400);
    expect(published.check(invalid)).toEqual({ ok: true, operationId: 'getInvestigationReport' });
  });

  it('fails when a zod response schema changes and the handler output does not', async () => {
    const answer = await invoke(health, '/health');
    const newRequiredField = withResponseSchema(
      'getHealth',
      200,
      z.extend(HealthResponse, { uptime_seconds: z.number().check(z.int()) }),
    );
    const check = newRequiredField.check(answer);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.message).toMatch(
      /OpenAPI drift: GET \/health → 200 \(getHealth 200\).*must have required property 'uptime_seconds'/,
    );

    const retypedField = withResponseSchema(
      'getHealth',
      200,
      z.extend(HealthResponse, { tenant: z.number() }),
    );
    expect(retypedField.check(answer)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/\/tenant must be number/),
    });

    const droppedField = withResponseSchema('getHealth', 200, z.omit(HealthResponse, { tenant: true }));
    expect(droppedField.check(answer)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/must NOT have additional properties \(tenant\)/),
    });
    expect(() => retypedField.assert(answer)).toThrow(/OpenAPI drift/);
  });

  it('fails an undocumented status, a success outside the document, and JSON documented but not sent', async () => {
    const answer = await invoke(health, '/health');
    expect(published.check({ ...answer, status: 418 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/status 418 is not documented for getHealth/),
    });
    expect(published.check({ ...answer, path: '/api/v1/nowhere' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/has no such operation/),
    });
    expect(published.check({ ...answer, contentType: 'text/plain' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/documented as JSON/),
    });
  });

  it("checks the gateway's own errors against the error shape, and follows the proxy prefix", () => {
    const error = { error: { code: 'not_found', message: 'No route.', request_id: 'r1' } };
    const observed = {
      method: 'DELETE',
      path: '/health',
      status: 404,
      contentType: 'application/json',
      body: error,
    };
    expect(published.check(observed).ok).toBe(true);
    expect(published.check({ ...observed, body: { message: 'Not Found' } }).ok).toBe(false);
    const proxied = published.operationFor(
      'GET',
      '/proxy/agent/api/v1/public/sessions/s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF?after=x',
    );
    expect(proxied?.operationId).toBe('getSessionHistory');
    expect(published.operationFor('GET', '/proxy/agent/api/v1/incidents')).toBeUndefined();
  });

  it('skips bodies the document does not describe as JSON (the YAML manifest, the logo)', () => {
    const yaml = {
      method: 'GET',
      path: '/plugin/security-copilot.yaml',
      status: 200,
      contentType: 'application/yaml; charset=utf-8',
      body: 'Descriptor: {}',
    };
    expect(published.check(yaml)).toEqual({ ok: true, operationId: 'getSecurityCopilotManifest' });
  });

  it('admits null only where the schema is nullable (a report before completion, not a verdict of a report)', () => {
    const pending = {
      session_id: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
      status: 'active',
      entity: { type: 'ip', value: '203.0.113.7' },
      persona: 'SOC Analyst',
      tlp: 'amber',
      report: null,
      created_at: '2026-11-01T12:00:00Z',
    };
    const observed = {
      method: 'GET',
      path: '/api/v1/sessions/s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
      status: 200,
      contentType: 'application/json',
      body: pending,
    };
    expect(published.check(observed).ok).toBe(true);
    expect(published.check({ ...observed, body: { ...pending, entity: null } }).ok).toBe(false);
  });

  it('accepts every documented example of a response component (the examples a model reads are true)', () => {
    const document = buildOpenApiDocument(ROUTES, { serverUrl: 'http://127.0.0.1', view: 'full' });
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { responses: Record<string, unknown> }>,
      )) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const schema = (response as { content?: Record<string, { schema?: { $ref?: string } }> }).content?.[
            'application/json'
          ]?.schema;
          const name = schema?.$ref?.split('/').pop();
          const example = name
            ? (document.components?.schemas?.[name] as { example?: unknown } | undefined)?.example
            : undefined;
          if (example === undefined) continue;
          const concrete = path.replace(/\{[^}]+\}/g, 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF');
          const result = published.check({
            method,
            path: concrete,
            status: Number(status),
            contentType: 'application/json',
            body: example,
          });
          expect(result, `${method} ${path} ${status} example of ${name}`).toMatchObject({ ok: true });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});
