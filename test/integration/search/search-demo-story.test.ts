import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalService, startLocalService } from '../../../local/service';
import { SCOPES } from '../../../shared/domain/keys/scopes';
import { apiKeyService } from '../../../shared/services/auth/api-keys';
import { dynamodbEndpoint } from '../../support/dynamodb';

/**
 * Search finds what an analyst remembers of the demo story (docs/incidents.md): after investigating
 * 203.0.113.66, the words of the incidents its report quotes (password spray, brute force) and the
 * docs' own example phrase find that session.
 */
let service: LocalService;
let key: string;
let sessionId: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  service = await startLocalService({
    port: 0,
    dynamodb: { endpoint: dynamodbEndpoint() },
    tablePrefix: `sis-t${randomBytes(5).toString('hex')}`,
    demoData: true,
    env: { SIS_DEMO_DATA: '1' },
    staleSessionSweep: false,
  });
  const issued = await apiKeyService().create({ name: 'analyst', scopes: [...SCOPES] }, 'test');
  key = issued.apiKey;
  const started = await call('POST', '/api/v1/investigations/start', {
    entity: { type: 'ip', value: '203.0.113.66' },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  sessionId = started.body.session_id;
}, 180_000);

afterAll(async () => {
  await service?.stop();
});

describe('search over the demo story', () => {
  it.each(['spray', 'password', 'brute', '"password spray"', 'Password Spray', 'entra'])(
    '%s finds the investigation of 203.0.113.66',
    async (q) => {
      const found = await call('GET', `/api/v1/search?q=${encodeURIComponent(q)}&limit=100`);
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(found.body.results.map((r: { session_id: string }) => r.session_id)).toContain(sessionId);
    },
  );

  it('words it never had find nothing', async () => {
    const found = await call('GET', '/api/v1/search?q=ransomware&limit=100');
    expect(found.body.results.map((r: { session_id: string }) => r.session_id)).not.toContain(sessionId);
  });
});
