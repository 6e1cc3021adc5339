import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../../local/gateway';
import { defineRoute } from '../../../shared/api/route-types';

const SYNC_WAIT_MS = 1860 * 1000;

const probe = defineRoute({
  operationId: 'probe',
  method: 'GET',
  path: '/probe',
  access: { kind: 'public' },
  functionName: 'probe',
  summary: 'probe',
  description: 'reports the time the handler is given',
  tags: [],
  request: {},
  responses: { 200: { description: 'ok' } },
});

const server = createGateway({
  routes: [probe],
  arnBase: { region: 'us-east-1', accountId: '000000000000', apiId: 'local', stage: 'local' },
  loadHandler: async () => async (_event, context) => ({
    statusCode: 200,
    body: JSON.stringify({ remainingMs: context.getRemainingTimeInMillis() }),
  }),
  loadAuthorizer: async () => {
    throw new Error('no protected route here');
  },
});

beforeAll(() => new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready())));
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the local gateway lets a synchronous investigation wait the contract 1860 s', () => {
  it('sets the server timeouts on purpose instead of Node defaults (300 s request timeout)', () => {
    expect(server.requestTimeout).toBeGreaterThanOrEqual(SYNC_WAIT_MS);
    expect(server.timeout).toBeGreaterThanOrEqual(SYNC_WAIT_MS);
  });

  it('gives the handler at least 1860 s of remaining time', async () => {
    const { port } = server.address() as AddressInfo;
    const res = await request(`http://127.0.0.1:${port}/probe`);
    const body = (await res.body.json()) as { remainingMs: number };
    expect(body.remainingMs).toBeGreaterThanOrEqual(SYNC_WAIT_MS);
  });
});
