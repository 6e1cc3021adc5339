import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../../shared/api/security-headers';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

describe('the local gateway and the platform contract over HTTP', () => {
  it('answers GET /health with 200 and the tenant', async () => {
    const res = await service.call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', tenant: 'local' });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it("carries the handlers' security headers (nosniff first) on the gateway's own 400, 401, 403, 404, 413 and 429", async () => {
    const handlerAnswer = await service.call('GET', '/health');
    const expected = Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase());
    expect(expected).toContain('x-content-type-options');
    for (const name of expected) expect(handlerAnswer.headers[name], `handler ${name}`).toBeDefined();
    const limited = await service.createKey({
      name: 'one per second',
      scopes: ['incidents:read'],
      rate_limit: { rate_per_second: 1, burst: 1 },
    });
    const answers = {
      400: await service.call('GET', '/api/v1/sessions/%E0%A4%A', { key: service.adminKey }),
      401: await service.call('GET', '/api/v1/incidents'),
      403: await service.call('GET', '/api/v1/search?q=x', { key: limited.apiKey }),
      404: await service.call('GET', '/api/v1/nothing-here'),
      413: await service.call('POST', '/api/v1/admin/keys', {
        key: service.adminKey,
        rawBody: 'x'.repeat(10 * 1024 * 1024 + 1),
        headers: { 'content-type': 'application/json' },
      }),
      429: await (async () => {
        let last = await service.call('GET', '/api/v1/incidents', { key: limited.apiKey });
        for (let i = 0; i < 5 && last.status !== 429; i++) {
          last = await service.call('GET', '/api/v1/incidents', { key: limited.apiKey });
        }
        return last;
      })(),
    };
    for (const [status, answer] of Object.entries(answers)) {
      expect(answer.status).toBe(Number(status));
      expect(answer.headers['x-content-type-options'], status).toBe('nosniff');
      for (const name of expected) {
        expect(answer.headers[name], `${status} ${name}`).toBe(handlerAnswer.headers[name]);
      }
    }
  });

  it('answers an unknown route and an unknown method with 404 in the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nothing-here'],
      ['DELETE', '/health'],
      ['GET', '/api/v1/admin/keys/../../health'],
    ] as const) {
      const res = await service.call(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject(errorShape('not_found'));
    }
  });

  it('answers a malformed JSON body with 400 and loses nothing', async () => {
    const before = await service.call('GET', '/api/v1/admin/keys', { key: service.adminKey });
    const res = await service.call('POST', '/api/v1/admin/keys', {
      key: service.adminKey,
      rawBody: '{"name": "x", ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(errorShape('validation_error'));
    const after = await service.call('GET', '/api/v1/admin/keys', { key: service.adminKey });
    expect(after.body.keys).toHaveLength(before.body.keys.length);
  });

  it('answers a body over 1 MiB with 413 in the error shape', async () => {
    const res = await service.call('POST', '/api/v1/admin/keys', {
      key: service.adminKey,
      body: { name: 'big', description: 'x'.repeat(1_200_000), scopes: [] },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject(errorShape('payload_too_large'));
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await service.call('POST', '/api/v1/admin/keys', {
      key: service.adminKey,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject(errorShape('unsupported_media_type'));
  });

  it('answers a missing key with 401 and a key outside its scopes with 403, both in the error shape', async () => {
    const missing = await service.call('GET', '/api/v1/admin/keys');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject(errorShape('unauthorized'));
    const client = await service.createKey({ scopes: ['graph:read'] });
    const denied = await service.call('GET', '/api/v1/admin/keys', { key: client.apiKey });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject(errorShape('forbidden'));
  });

  it('serves the public documents without a key', async () => {
    const openapi = await service.call('GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe('3.0.1');
    expect(openapi.body.servers[0].url).toBe(service.baseUrl);
    const manifest = await service.call('GET', '/.well-known/ai-plugin.json');
    expect(manifest.body.api.url).toBe(`${service.baseUrl}/plugin/openapi.json`);
    const yaml = await service.call('GET', '/plugin/security-copilot.yaml');
    expect(yaml.headers['content-type']).toMatch(/yaml/);
    expect(yaml.text).toContain('X-API-Key');
  });
});
