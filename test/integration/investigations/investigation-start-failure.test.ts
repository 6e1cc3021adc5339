import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lifecycleContext } from '../../../shared/services/sessions/lifecycle-context';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * When the workflow cannot be started (here: the state machine ARN names no state machine, as a
 * misconfigured or throttled Step Functions would answer), the session must not stay initialized.
 */
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:does-not-exist',
      SIS_EXPRESS_STATE_MACHINE_ARN:
        'arn:aws:states:us-east-1:000000000000:stateMachine:does-not-exist-express',
    },
  });
  key = (await service.createKey({ name: 'start failure' })).apiKey;
});

afterAll(async () => {
  await service?.stop();
});

describe('a workflow that cannot be started', () => {
  it('answers 503 and leaves the session failed, never stuck initialized', async () => {
    const headers = { 'idempotency-key': 'start-failure-1' };
    const body = { entity: 'unstartable.example.com', background: true };
    const answer = await service.call('POST', '/api/v1/investigations/start', { key, body, headers });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject(errorShape('service_unavailable'));

    expect(await lifecycleContext().openSessions.list()).toEqual([]);
    const found = await service.call('GET', '/api/v1/search?q=unstartable.example.com', { key });
    expect(found.status).toBe(200);
    expect(found.body.results).toEqual([expect.objectContaining({ status: 'failed' })]);

    // The key was released: a retry is a new attempt, not a replay of the failed session.
    const retry = await service.call('POST', '/api/v1/investigations/start', { key, body, headers });
    expect(retry.status).toBe(503);
    const again = await service.call('GET', '/api/v1/search?q=unstartable.example.com', { key });
    expect(again.body.results).toHaveLength(2);
  });
});
