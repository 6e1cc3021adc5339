import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../../support/console-sign-in';
import { errorShape, startTestService, type TestService } from '../../support/local-service';
import { consoleDocumentValidator } from '../../support/openapi-response-validator';

/**
 * The console's sign-in and data routes over HTTP: a real sign-in through the local OpenID Connect
 * issuer (code + PKCE, the login form submitted), then the console routes with the ID token, as the
 * browser app calls them. One local service for the file.
 */
const PASSWORDS = { admin: 'admin-test-password', analyst: 'analyst-test-password' };
/** Its tool step waits 3 s, so the session is still running when the STIX export is asked for. */
const SLOW = 'slow-console-stix.example.com';

let service: TestService;
let adminToken: string;
let analystToken: string;
let loginPage: string;

async function consoleCall(method: 'GET' | 'POST', path: string, token?: string, body?: unknown) {
  const response = await request(`${service.baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  // The console's JSON answers must match the document its generated types come from.
  if (path.startsWith('/api/v1/console/') || path === '/console/config.json') {
    consoleDocumentValidator().assert({
      method,
      path,
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      body: json,
    });
  }
  return { status: response.statusCode, headers: response.headers, body: json, text };
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

beforeAll(async () => {
  service = await startTestService({
    env: {
      SIS_CONSOLE_ADMIN_PASSWORD: PASSWORDS.admin,
      SIS_CONSOLE_ANALYST_PASSWORD: PASSWORDS.analyst,
      SIS_FAULT_INJECTION: `step-run-tool@${SLOW}=delay:3000`,
    },
  });
  const admin = await signInToConsole(service.baseUrl, { username: 'admin', password: PASSWORDS.admin });
  adminToken = admin.idToken;
  loginPage = admin.loginPage;
  analystToken = (
    await signInToConsole(service.baseUrl, { username: 'analyst', password: PASSWORDS.analyst })
  ).idToken;
});

afterAll(async () => {
  await service?.stop();
});

describe('local sign-in', () => {
  it('serves a login form with labelled fields and issues Cognito-shaped ID tokens', () => {
    expect(loginPage).toMatch(/<label for="username">Username<\/label>/);
    expect(loginPage).toMatch(/<label for="password">Password<\/label>/);
    expect(loginPage).not.toMatch(/<script/i);
    const claims = claimsOf(adminToken);
    expect(claims).toMatchObject({
      token_use: 'id',
      'cognito:username': 'admin',
      'cognito:groups': ['admins', 'analysts'],
      aud: service.console.clientId,
      iss: service.console.issuer,
    });
    expect(claimsOf(analystToken)['cognito:groups']).toEqual(['analysts']);
  });

  it('refuses a wrong password', async () => {
    await expect(
      signInToConsole(service.baseUrl, { username: 'admin', password: 'wrong-password' }),
    ).rejects.toThrow(/refused/);
  });

  it('publishes the sign-in settings the browser app needs', async () => {
    const answer = await consoleCall('GET', '/console/config.json');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      issuer: service.console.issuer,
      client_id: service.console.clientId,
      authorization_endpoint: `${service.console.issuer}/oauth2/authorize`,
      token_endpoint: `${service.console.issuer}/oauth2/token`,
      redirect_uri: `${service.baseUrl}/auth/callback`,
    });
  });
});

describe('console routes and roles', () => {
  it('answers who is signed in with the role from the groups', async () => {
    expect((await consoleCall('GET', '/api/v1/console/me', adminToken)).body).toMatchObject({
      username: 'admin',
      role: 'admin',
    });
    expect((await consoleCall('GET', '/api/v1/console/me', analystToken)).body).toMatchObject({
      username: 'analyst',
      role: 'analyst',
    });
  });

  it('refuses no token, a tampered token and an API key with 401', async () => {
    const tampered = `${adminToken.slice(0, -4)}${adminToken.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const token of [undefined, tampered, service.adminKey]) {
      const answer = await consoleCall('GET', '/api/v1/console/sessions', token);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject(errorShape('unauthorized'));
    }
    const byHeader = await request(`${service.baseUrl}/api/v1/console/me`, {
      headers: { 'x-api-key': service.adminKey },
    });
    expect(byHeader.statusCode).toBe(401);
    await byHeader.body.dump();
  });

  it('refuses an analyst on admin routes (403) and lets an admin manage keys as themself', async () => {
    const denied = await consoleCall('GET', '/api/v1/console/admin/keys', analystToken);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject(errorShape('forbidden'));
    expect((await consoleCall('GET', '/api/v1/console/admin/audit', analystToken)).status).toBe(403);

    const created = await consoleCall('POST', '/api/v1/console/admin/keys', adminToken, {
      name: 'made in the console',
      scopes: ['investigations:read'],
    });
    expect(created.status).toBe(201);
    expect(created.body.api_key).toMatch(/^sis_/);
    const keyId = created.body.key_id as string;
    const rotated = await consoleCall('POST', `/api/v1/console/admin/keys/${keyId}/rotate`, adminToken, {
      grace_period_seconds: 0,
    });
    expect(rotated.status).toBe(200);
    expect(
      (await consoleCall('POST', `/api/v1/console/admin/keys/${keyId}/disable`, adminToken)).status,
    ).toBe(200);
    const listed = await consoleCall('GET', '/api/v1/console/admin/keys?search=console', adminToken);
    expect(listed.body.keys).toEqual([expect.objectContaining({ key_id: keyId, status: 'disabled' })]);

    const audit = await consoleCall('GET', '/api/v1/console/admin/audit?limit=2', adminToken);
    expect(audit.status).toBe(200);
    const actor = `user:${String(claimsOf(adminToken).sub)}`;
    expect(audit.body.entries.map((e: { action: string; actor: string }) => [e.action, e.actor])).toEqual([
      ['disable', actor],
      ['rotate', actor],
    ]);
    const next = await consoleCall(
      'GET',
      `/api/v1/console/admin/audit?limit=2&cursor=${audit.body.next_cursor}`,
      adminToken,
    );
    expect(next.body.entries[0]).toMatchObject({ action: 'create', key_id: keyId, actor });
  });
});

describe('investigations in the console', () => {
  it("owns what a person starts, and shows every session of the tenant, a key's included", async () => {
    const byKey = await service.call('POST', '/api/v1/investigations/start', {
      key: (await service.createKey({ name: 'SOAR playbook' })).apiKey,
      body: { entity: '198.51.100.23', background: true },
    });
    expect(byKey.status).toBe(202);
    const byPerson = await consoleCall('POST', '/api/v1/console/investigations', analystToken, {
      entity: { type: 'domain', value: 'console-started.example.com' },
    });
    expect(byPerson.status).toBe(202);
    expect(byPerson.body.session_url).toBe(`${service.baseUrl}/sessions/${byPerson.body.session_id}`);
    await service.stepFunctions.idle();

    const listed = await consoleCall('GET', '/api/v1/console/sessions', adminToken);
    expect(listed.status).toBe(200);
    const owners = Object.fromEntries(
      listed.body.results.map((r: { session_id: string; owner: unknown }) => [r.session_id, r.owner]),
    );
    // The starter's name is recorded with the session: the person's username (the admin lists it) and
    // the key's name.
    expect(owners[byPerson.body.session_id]).toEqual({
      kind: 'user',
      id: claimsOf(analystToken).sub,
      name: 'analyst',
    });
    expect(owners[byKey.body.session_id]).toMatchObject({ kind: 'key', name: 'SOAR playbook' });
    const own = await consoleCall('GET', '/api/v1/console/sessions', analystToken);
    expect(
      own.body.results.find((r: { session_id: string }) => r.session_id === byPerson.body.session_id).owner,
    ).toEqual({ kind: 'user', id: claimsOf(analystToken).sub, name: 'analyst' });
    expect(listed.body.results[0].session_id).toBe(byPerson.body.session_id); // newest first

    const searched = await consoleCall('GET', '/api/v1/console/sessions?q=198.51.100.23', analystToken);
    expect(searched.body.results.map((r: { session_id: string }) => r.session_id)).toEqual([
      byKey.body.session_id,
    ]);

    // Any session of the tenant: the analyst reads the key's session and its report.
    const history = await consoleCall(
      'GET',
      `/api/v1/console/sessions/${byKey.body.session_id}`,
      analystToken,
    );
    expect(history.status).toBe(200);
    expect(history.body.session.status).toBe('completed');
    const report = await consoleCall(
      'GET',
      `/api/v1/console/sessions/${byPerson.body.session_id}/report`,
      analystToken,
    );
    expect(report.body).toMatchObject({
      status: 'completed',
      entity: { value: 'console-started.example.com' },
    });
    expect(
      (await consoleCall('POST', `/api/v1/console/sessions/${byPerson.body.session_id}/cancel`, adminToken))
        .status,
    ).toBe(409);

    // Keys stay confined to their own sessions: the person's session is not a key's to read.
    const asKey = await service.call('GET', `/api/v1/sessions/${byPerson.body.session_id}`, {
      key: (await service.createKey()).apiKey,
    });
    expect(asKey.status).toBe(403);
  });

  it("lists one batch's sessions when asked for its batch_id, and refuses it with a search", async () => {
    const playbook = await service.createKey({ name: 'Batch playbook' });
    const batch = await service.call('POST', '/api/v1/investigations/batch', {
      key: playbook.apiKey,
      body: { entities: ['198.51.100.71', 'batch-console.example.com', '198.51.100.71'] },
    });
    expect(batch.status).toBe(202);
    await service.stepFunctions.idle();
    const started = batch.body.sessions.map((s: { session_id: string }) => s.session_id).sort();
    expect(started).toHaveLength(2);

    const listed = await consoleCall(
      'GET',
      `/api/v1/console/sessions?batch_id=${batch.body.batch_id}`,
      analystToken,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((r: { session_id: string }) => r.session_id).sort()).toEqual(started);
    expect(listed.body.next_cursor).toBeNull();
    for (const result of listed.body.results) {
      expect(result).toMatchObject({ status: 'completed', owner: { kind: 'key', name: 'Batch playbook' } });
      expect(result.verdict).not.toBeNull();
    }
    const withSearch = await consoleCall(
      'GET',
      `/api/v1/console/sessions?batch_id=${batch.body.batch_id}&q=anything`,
      analystToken,
    );
    expect(withSearch.status).toBe(400);
    expect(withSearch.body.error.message).toContain('does not combine');
    const unknown = await consoleCall(
      'GET',
      '/api/v1/console/sessions?batch_id=b_0000000000NOTABATCH',
      adminToken,
    );
    expect(unknown.status).toBe(404);
    expect((await consoleCall('GET', '/api/v1/console/sessions?batch_id=nope', adminToken)).status).toBe(400);
  });
});

describe('incidents and the graph in the console', () => {
  it("lists incidents, answers one in full (absent texts as null) and its entities' neighbourhood", async () => {
    const writer = (await service.createKey({ name: 'console siem', scopes: ['incidents:write'] })).apiKey;
    const ingest = await service.call('POST', '/api/v1/incidents/ingest', {
      key: writer,
      body: {
        incidents: [
          {
            source: 'custom',
            source_id: 'console-incident-1',
            title: 'Console incident with no description',
            severity: 'high',
            status: 'new',
            created_at: '2026-11-20T08:00:00Z',
            entities: ['203.0.113.91', { type: 'user', value: 'console.user@contoso.example' }],
          },
        ],
      },
    });
    expect(ingest.body).toMatchObject({ accepted: 1, rejected: 0 });
    await service.incidentQueue.idle();

    const listed = await consoleCall('GET', '/api/v1/console/incidents?severity=high', analystToken);
    expect(listed.status).toBe(200);
    const listedItem = listed.body.incidents.find(
      (i: { source_id: string }) => i.source_id === 'console-incident-1',
    );
    expect(listedItem).toBeDefined();
    const one = await consoleCall('GET', `/api/v1/console/incidents/${listedItem.incident_id}`, analystToken);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      title: 'Console incident with no description',
      description: null,
      source_url: null,
      entities: [
        { type: 'ip', value: '203.0.113.91' },
        { type: 'user', value: 'console.user@contoso.example' },
      ],
    });
    const graph = await consoleCall('GET', '/api/v1/console/graph/entity/203.0.113.91?type=ip', analystToken);
    expect(graph.status).toBe(200);
    expect(graph.body.neighbors.map((n: { value: string }) => n.value)).toEqual([
      'console.user@contoso.example',
    ]);
    expect((await consoleCall('GET', '/api/v1/console/incidents/inc_unknown', analystToken)).status).toBe(
      404,
    );
  });
});

describe('the STIX export in the console', () => {
  it("answers the bundle of any completed session of the tenant, a key's included", async () => {
    const owner = (await service.createKey()).apiKey;
    const byKey = await service.call('POST', '/api/v1/investigations/start', {
      key: owner,
      body: { entity: { type: 'domain', value: 'paypa1-login.com' }, tlp: 'green' },
    });
    expect(byKey.status).toBe(200);
    const sessionId = byKey.body.session_id as string;

    const bundle = await consoleCall('GET', `/api/v1/console/sessions/${sessionId}/stix`, analystToken);
    expect(bundle.status).toBe(200);
    expect(bundle.headers['cache-control']).toBe('no-store');
    expect(bundle.body.type).toBe('bundle');
    const report = bundle.body.objects.find((o: { type: string }) => o.type === 'report');
    expect(report.external_references[0].external_id).toBe(sessionId);
    // The same export the owning key gets from the plugin route.
    const asPlugin = await service.call('GET', `/api/v1/sessions/${sessionId}/stix`, { key: owner });
    expect(asPlugin.status).toBe(200);
    expect(bundle.body.objects.map((o: { id: string }) => o.id).sort()).toEqual(
      asPlugin.body.objects.map((o: { id: string }) => o.id).sort(),
    );

    // API keys are refused on the console route, the owner's included.
    expect((await consoleCall('GET', `/api/v1/console/sessions/${sessionId}/stix`)).status).toBe(401);
    const byKeyHeader = await request(`${service.baseUrl}/api/v1/console/sessions/${sessionId}/stix`, {
      headers: { 'x-api-key': service.adminKey },
    });
    expect(byKeyHeader.statusCode).toBe(401);
    await byKeyHeader.body.dump();
    expect(
      (await consoleCall('GET', `/api/v1/console/sessions/${sessionId}/stix`, service.adminKey)).status,
    ).toBe(401);

    const unknown = await consoleCall(
      'GET',
      '/api/v1/console/sessions/s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF/stix',
      adminToken,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(errorShape('not_found'));
  });

  it('is a 409 while the session has no report yet', async () => {
    const started = await consoleCall('POST', '/api/v1/console/investigations', analystToken, {
      entity: { type: 'domain', value: SLOW },
    });
    expect(started.status).toBe(202);
    const early = await consoleCall(
      'GET',
      `/api/v1/console/sessions/${started.body.session_id}/stix`,
      analystToken,
    );
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject(errorShape('conflict'));
    await service.stepFunctions.idle();
    const done = await consoleCall(
      'GET',
      `/api/v1/console/sessions/${started.body.session_id}/stix`,
      analystToken,
    );
    expect(done.status).toBe(200);
    expect(done.body.type).toBe('bundle');
  });
});

describe('the HTML shell', () => {
  it('answers every page path with the shell under a strict policy, and only manifest assets', async () => {
    for (const path of [
      '/sessions',
      '/sessions/s_0123456789',
      '/incidents/inc_1',
      '/graph/10.0.0.1',
      '/admin/keys',
    ]) {
      const page = await consoleCall('GET', path);
      expect(page.status, path).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
    }
    const redirect = await consoleCall('GET', '/console');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe(`${service.baseUrl}/sessions`);
    expect((await consoleCall('GET', '/console/assets/not-in-manifest.js')).status).toBe(404);
    expect((await consoleCall('GET', '/console/assets/..%2Fpackage.json')).status).toBe(400);
  });
});
