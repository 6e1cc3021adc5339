import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalService, startLocalService } from '../../../local/service';
import { SCOPES } from '../../../shared/domain/keys/scopes';
import { apiKeyService } from '../../../shared/services/auth/api-keys';
import { dynamodbEndpoint } from '../../support/dynamodb';

/**
 * A restart of the local runtime in the middle of an investigation: the run dies with the process,
 * and the next start-up ends the open session failed. Polling reads persisted state only and never
 * re-runs anything (spec section 3, rule 4).
 */
const SLOW = 'restart-slow.example.com';
const tablePrefix = `sis-t${randomBytes(5).toString('hex')}`;
let service: LocalService | undefined;

const startService = () =>
  startLocalService({
    port: 0,
    dynamodb: { endpoint: dynamodbEndpoint() },
    tablePrefix,
    env: { SIS_DEMO_DATA: '0', SIS_FAULT_INJECTION: `step-run-tool@${SLOW}=delay:1500` },
  });

/** The fields of the start and poll answers this test reads. */
interface Answer {
  session_id: string;
  status: string;
  session: { status: string; failure_reason?: string };
  events: { type: string; detail: Record<string, unknown> }[];
  tool_calls: unknown[];
}

async function call(method: 'GET' | 'POST', path: string, apiKey: string, body?: unknown) {
  const answer = await request(`${service!.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: answer.statusCode, body: (await answer.body.json()) as Answer };
}

afterAll(async () => {
  await service?.stop();
});

describe('restart during an investigation', () => {
  it('leaves the interrupted session failed, not re-run, and keeps it readable', async () => {
    service = await startService();
    const issued = await apiKeyService().create({ name: 'restart test', scopes: [...SCOPES] }, 'test-suite');
    const key = issued.apiKey;

    const started = await call('POST', '/api/v1/investigations/start', key, {
      entity: SLOW,
      background: true,
    });
    expect(started.status).toBe(202);
    const sessionId = started.body.session_id;
    for (let i = 0; i < 100; i++) {
      if ((await call('GET', `/api/v1/public/sessions/${sessionId}`, key)).body.session.status === 'active')
        break;
      await new Promise((wake) => setTimeout(wake, 50));
    }
    const before = await call('GET', `/api/v1/public/sessions/${sessionId}`, key);
    expect(before.body.session.status).toBe('active');

    await service.stop();
    service = await startService();

    const after = await call('GET', `/api/v1/public/sessions/${sessionId}`, key);
    expect(after.status).toBe(200);
    expect(after.body.session).toMatchObject({
      status: 'failed',
      failure_reason: 'interrupted by a service restart',
    });
    expect(after.body.events.at(-1)).toMatchObject({
      type: 'status_changed',
      detail: { status: 'failed', reason: 'interrupted by a service restart' },
    });

    // Nothing runs it again: no new workflow activity and the outcome stays as it is.
    await service.stepFunctions.idle();
    await new Promise((wake) => setTimeout(wake, 300));
    const later = await call('GET', `/api/v1/public/sessions/${sessionId}`, key);
    expect(later.body.session.status).toBe('failed');
    expect(later.body.events.length).toBe(after.body.events.length);
    expect(later.body.tool_calls.length).toBe(after.body.tool_calls.length);

    // The restarted runtime works normally.
    const fresh = await call('POST', '/api/v1/investigations/start', key, { entity: '203.0.113.7' });
    expect(fresh.status).toBe(200);
    expect(fresh.body.status).toBe('completed');
  });
});
