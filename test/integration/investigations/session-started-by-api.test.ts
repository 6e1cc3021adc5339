import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../../shared/config';
import { documentClientFor } from '../../../shared/store/dynamo-client';
import { sessionKey } from '../../../shared/store/sessions/keys';
import { tableName } from '../../../shared/store/tables';
import { signInToConsole } from '../../support/console-sign-in';
import { startTestService, type TestService } from '../../support/local-service';
import { consoleDocumentValidator } from '../../support/openapi-response-validator';

/**
 * Issue #28: the poll answers who started a session (session.started_by), by name, to those who may
 * poll it: the key that started it (public poll) and console users (console poll). The start records
 * the starter's name on the session; a session from before that falls back to the polling key's own
 * name, or, in the console, to the keys table.
 */
const PASSWORDS = { admin: 'started-by-admin-password', analyst: 'started-by-analyst-password' };

let service: TestService;
let adminToken: string;
let analystToken: string;
let playbook: { keyId: string; apiKey: string };

async function consolePoll(sessionId: string, token: string) {
  const path = `/api/v1/console/sessions/${sessionId}`;
  const response = await request(`${service.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.body.json()) as any;
  consoleDocumentValidator().assert({
    method: 'GET',
    path,
    status: response.statusCode,
    contentType: String(response.headers['content-type'] ?? ''),
    body,
  });
  return { status: response.statusCode, body };
}

const publicPoll = (sessionId: string, key: string) =>
  service.call('GET', `/api/v1/public/sessions/${sessionId}`, { key });

/** A session as recorded before starters' names were: no owner_name on its record. */
async function forgetName(sessionId: string) {
  await documentClientFor(config()).send(
    new UpdateCommand({
      TableName: tableName(config(), 'sessions'),
      Key: sessionKey(sessionId),
      UpdateExpression: 'REMOVE owner_name',
      ConditionExpression: 'attribute_exists(owner_name)',
    }),
  );
}

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_CONSOLE_ADMIN_PASSWORD: PASSWORDS.admin,
      SIS_CONSOLE_ANALYST_PASSWORD: PASSWORDS.analyst,
    },
  });
  adminToken = (await signInToConsole(service.baseUrl, { username: 'admin', password: PASSWORDS.admin }))
    .idToken;
  analystToken = (
    await signInToConsole(service.baseUrl, { username: 'analyst', password: PASSWORDS.analyst })
  ).idToken;
  playbook = await service.createKey({ name: 'SOAR playbook' });
});

afterAll(async () => {
  await service?.stop();
});

describe('who started a session, in the poll', () => {
  let byKey: string;
  let byPerson: string;

  it('names the key to itself and to console users, from the name recorded at the start', async () => {
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: playbook.apiKey,
      body: { entity: '198.51.100.23', background: true },
    });
    expect(started.status).toBe(202);
    byKey = started.body.session_id;
    // While it runs, too: the first poll already says who started it.
    const first = await publicPoll(byKey, playbook.apiKey);
    expect(first.status).toBe(200);
    const expected = { kind: 'api_key', key_id: playbook.keyId, name: 'SOAR playbook' };
    expect(first.body.session.started_by).toEqual(expected);
    await service.stepFunctions.idle();

    expect((await publicPoll(byKey, playbook.apiKey)).body.session.started_by).toEqual(expected);
    const asAnalyst = await consolePoll(byKey, analystToken);
    expect(asAnalyst.status).toBe(200);
    expect(asAnalyst.body.session).toMatchObject({ status: 'completed', started_by: expected });
    // Another key still may not poll it at all, so learns nothing of its starter.
    const other = await publicPoll(byKey, (await service.createKey({ name: 'other' })).apiKey);
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body)).not.toContain('SOAR playbook');
  });

  it('names the person who started it in the console, to every console user', async () => {
    const started = await request(`${service.baseUrl}/api/v1/console/investigations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${analystToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity: { type: 'domain', value: 'started-by.example.com' } }),
    });
    expect(started.statusCode).toBe(202);
    byPerson = ((await started.body.json()) as { session_id: string }).session_id;
    await service.stepFunctions.idle();
    for (const token of [analystToken, adminToken]) {
      expect((await consolePoll(byPerson, token)).body.session.started_by).toEqual({
        kind: 'user',
        name: 'analyst',
      });
    }
  });

  it('falls back for sessions recorded without a name: the key itself, the keys table, the person', async () => {
    await forgetName(byKey);
    await forgetName(byPerson);
    // The key polling its own session knows its name without a read.
    expect((await publicPoll(byKey, playbook.apiKey)).body.session.started_by).toEqual({
      kind: 'api_key',
      key_id: playbook.keyId,
      name: 'SOAR playbook',
    });
    // The console looks the key's name up.
    expect((await consolePoll(byKey, adminToken)).body.session.started_by).toEqual({
      kind: 'api_key',
      key_id: playbook.keyId,
      name: 'SOAR playbook',
    });
    // A person's name is known to that person only; to others the answer says it is not recorded.
    expect((await consolePoll(byPerson, analystToken)).body.session.started_by).toEqual({
      kind: 'user',
      name: 'analyst',
    });
    expect((await consolePoll(byPerson, adminToken)).body.session.started_by).toEqual({
      kind: 'user',
      name: null,
    });
  });
});
