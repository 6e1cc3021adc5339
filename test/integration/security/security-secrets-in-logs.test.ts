import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedPaths } from '../../../shared/api/route-types';
import { ROUTES } from '../../../shared/api/routes';
import { formatApiKey, generateKeyId, hashSecret, parseApiKey } from '../../../shared/domain/keys/api-key';
import { SCOPES } from '../../../shared/domain/keys/scopes';
import { logger } from '../../../shared/observability';
import { signInToConsole } from '../../support/console-sign-in';
import { jsonCall, type RawAnswer, rawRequest } from '../../support/fuzz-http';
import { startTestService, type TestService } from '../../support/local-service';
import { captureLogs, type LogCapture } from '../../support/log-capture';
import { tamperedApiKey } from '../../support/tampered-api-key';

/**
 * No credential ever reaches a log. Every log line of a full run (stdout, stderr and the Powertools
 * logger at DEBUG) is captured while the run touches every route of the table and every key
 * operation (create, list, rotate with grace, use of both secrets, disable, use after disable,
 * forged and spliced keys, Bearer), and an investigation whose engine fails so error paths log too.
 * The run fails if any API key, secret, secret hash, or the value of an X-API-Key or Authorization
 * header sent during it appears anywhere in what was logged.
 */
const ENGINE_FAULT = 'secrets-fault.example.com';
const CONSOLE_PASSWORD = 'console-secret-password-1';
let service: TestService;
let capture: LogCapture;
/** Every credential-bearing value sent or issued during the run. */
const secrets = new Set<string>();
const touched = new Set<string>();

function remember(apiKey: string | undefined): void {
  if (!apiKey) return;
  secrets.add(apiKey);
  const parsed = parseApiKey(apiKey);
  if (parsed) {
    secrets.add(parsed.secret);
    secrets.add(hashSecret(parsed.secret));
    // The key without its checksum, and the checksum-stripped secret run, are as good as the key.
    secrets.add(apiKey.slice(0, -8));
  }
}

async function send(
  method: string,
  path: string,
  options: { key?: string; bearer?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) {
    headers['x-api-key'] = options.key;
    remember(options.key);
  }
  if (options.bearer) {
    headers.authorization = `Bearer ${options.bearer}`;
    secrets.add(headers.authorization);
    remember(options.bearer);
  }
  const answer = await jsonCall(service.baseUrl, method, path, {
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const route = ROUTES.find((r) =>
    servedPaths(r).some(
      (p) =>
        r.method === method &&
        new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path.split('?')[0] ?? ''),
    ),
  );
  if (route) touched.add(route.operationId);
  return answer;
}

beforeAll(async () => {
  service = await startTestService({
    env: {
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
      SIS_FAULT_INJECTION: `step-assess@${ENGINE_FAULT}=throw`,
      SIS_CONSOLE_ADMIN_PASSWORD: CONSOLE_PASSWORD,
      // The webhook subscriptions point at a loopback port nothing listens on (they are removed at once).
      SIS_WEBHOOK_ALLOW_LOOPBACK: 'true',
    },
  });
  remember(service.adminKey);
  logger.setLogLevel('DEBUG');
  capture = captureLogs();
});

afterAll(async () => {
  capture?.stop();
  logger.setLogLevel('WARN');
  await service?.stop();
});

describe('secrets never reach the logs', () => {
  it('runs every route and key operation at DEBUG without logging a key, secret, hash or auth header', async () => {
    const admin = service.adminKey;
    // Key administration over HTTP.
    const created = await send('POST', '/api/v1/admin/keys', {
      key: admin,
      body: { name: 'secrets run', scopes: [...SCOPES], expires_in_days: 30 },
    });
    expect(created.status).toBe(201);
    const client: string = created.json.api_key;
    remember(client);
    const keyId: string = created.json.key_id;
    expect((await send('GET', '/api/v1/admin/keys?search=secrets', { key: admin })).status).toBe(200);
    expect((await send('GET', '/api/v1/admin/connectors', { key: admin })).status).toBe(200);
    const rotated = await send('POST', `/api/v1/admin/keys/${keyId}/rotate`, {
      key: admin,
      body: { grace_period_seconds: 600 },
    });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.json.api_key;
    remember(fresh);
    expect((await send('GET', '/api/v1/incidents', { key: client })).status).toBe(200); // old, in grace
    expect((await send('GET', '/api/v1/incidents', { bearer: fresh })).status).toBe(200);

    // Every other route, with the new secret.
    for (const path of ['/health', '/openapi.json', '/plugin/openapi.json', '/.well-known/ai-plugin.json']) {
      expect((await send('GET', path)).status).toBe(200);
    }
    expect((await send('GET', '/plugin/security-copilot.yaml')).status).toBe(200);
    expect((await send('GET', '/plugin/logo.svg')).status).toBe(200);
    const ingest = await send('POST', '/api/v1/incidents/ingest', {
      key: fresh,
      body: {
        incidents: [
          {
            source: 'custom',
            source_id: 'secrets-1',
            title: 'Brute force from 203.0.113.66',
            severity: 'high',
            status: 'new',
            created_at: '2026-11-01T00:00:00Z',
            entities: [
              { type: 'ip', value: '203.0.113.66' },
              { type: 'user', value: 'j.doe@contoso.example' },
            ],
          },
          { title: 42 },
        ],
      },
    });
    expect(ingest.status).toBe(202);
    await service.incidentQueue.idle();
    const sync = await send('POST', '/api/v1/investigations/start', {
      key: fresh,
      body: { entity: '203.0.113.66', include_tool_calls: true, include_raw_results: true },
    });
    expect(sync.status).toBe(200);
    const sessionId: string = sync.json.session_id;
    const background = await send('POST', '/api/v1/public/investigations/start', {
      bearer: fresh,
      body: { entity: { type: 'domain', value: ENGINE_FAULT }, background: true },
    });
    expect(background.status).toBe(202);
    expect((await send('GET', `/api/v1/public/sessions/${sessionId}`, { key: fresh })).status).toBe(200);
    expect(
      (await send('GET', `/proxy/agent/api/v1/public/sessions/${sessionId}`, { key: fresh })).status,
    ).toBe(200);
    expect((await send('GET', `/api/v1/sessions/${sessionId}`, { key: fresh })).status).toBe(200);
    expect((await send('GET', '/api/v1/sessions?limit=5', { key: fresh })).status).toBe(200);
    expect((await send('GET', `/api/v1/sessions/${sessionId}/stix`, { key: fresh })).status).toBe(200);
    expect((await send('POST', `/api/v1/public/sessions/${sessionId}/cancel`, { key: fresh })).status).toBe(
      409,
    );
    expect((await send('GET', '/api/v1/graph/entity/203.0.113.66', { key: fresh })).status).toBe(200);
    expect((await send('GET', '/api/v1/incidents?severity=high,critical', { key: fresh })).status).toBe(200);
    expect((await send('GET', '/api/v1/search?q=203.0.113.66', { key: fresh })).status).toBe(200);
    await service.stepFunctions.idle();

    // The web console, signed in through the local issuer: its password and ID token are secrets too.
    secrets.add(CONSOLE_PASSWORD);
    const { idToken } = await signInToConsole(service.baseUrl, {
      username: 'admin',
      password: CONSOLE_PASSWORD,
    });
    secrets.add(idToken);
    for (const page of ['/legal', '/sessions', `/sessions/${sessionId}`, '/console/config.json']) {
      expect((await send('GET', page)).status).toBe(200);
    }
    expect((await send('GET', '/console/assets/app.UNBUILT.js')).status).toBe(404);
    const incidents = await send('GET', '/api/v1/console/incidents', { bearer: idToken });
    expect(incidents.status).toBe(200);
    const incidentId: string = incidents.json.incidents[0].incident_id;
    for (const path of [
      '/api/v1/console/me',
      '/api/v1/console/sessions?q=203.0.113.66',
      `/api/v1/console/sessions/${sessionId}`,
      `/api/v1/console/sessions/${sessionId}/report`,
      `/api/v1/console/sessions/${sessionId}/stix`,
      `/api/v1/console/incidents/${incidentId}`,
      '/api/v1/console/graph/entity/203.0.113.66',
      '/api/v1/console/admin/keys',
      '/api/v1/console/admin/audit',
    ]) {
      expect((await send('GET', path, { bearer: idToken })).status, path).toBe(200);
    }
    expect(
      (await send('POST', `/api/v1/console/sessions/${sessionId}/cancel`, { bearer: idToken })).status,
    ).toBe(409);
    const started = await send('POST', '/api/v1/console/investigations', {
      bearer: idToken,
      body: { entity: '203.0.113.67' },
    });
    expect(started.status).toBe(202);
    const made = await send('POST', '/api/v1/console/admin/keys', {
      bearer: idToken,
      body: { name: 'console secrets run', scopes: ['incidents:read'] },
    });
    expect(made.status).toBe(201);
    remember(made.json.api_key);
    const remade = await send('POST', `/api/v1/console/admin/keys/${made.json.key_id}/rotate`, {
      bearer: idToken,
      body: { grace_period_seconds: 0 },
    });
    remember(remade.json.api_key);
    expect(
      (await send('POST', `/api/v1/console/admin/keys/${made.json.key_id}/disable`, { bearer: idToken }))
        .status,
    ).toBe(200);
    // The tenant's knowledge, over the API (admin key) and the console (signed-in admin).
    for (const caller of [{ key: admin }, { bearer: idToken }]) {
      const base = caller.key ? '/api/v1/admin/allowlist' : '/api/v1/console/admin/allowlist';
      const entry = await send('POST', base, {
        ...caller,
        body: { type: 'host', value: 'build-07', reason: 'CI runner' },
      });
      expect(entry.status).toBe(201);
      expect((await send('GET', base, caller)).status).toBe(200);
      expect((await send('DELETE', `${base}/${entry.json.entry_id}`, caller)).status).toBe(204);
      const feedback = caller.key
        ? `/api/v1/sessions/${sessionId}/feedback`
        : `/api/v1/console/sessions/${sessionId}/feedback`;
      const reviewed = await send('POST', feedback, {
        ...caller,
        body: { verdict: 'false_positive', comment: 'secrets run' },
      });
      expect(reviewed.status).toBe(201);
    }
    // The public feeds' admin routes (none enabled in this run: the list and a refresh of nothing).
    for (const caller of [{ key: admin }, { bearer: idToken }]) {
      const base = caller.key ? '/api/v1/admin/feeds' : '/api/v1/console/admin/feeds';
      expect((await send('GET', base, caller)).status).toBe(200);
      expect((await send('POST', `${base}/refresh`, { ...caller, body: {} })).status).toBe(200);
    }
    // Webhook subscriptions, over the API and the console: the signing secret is a secret too.
    for (const caller of [{ key: admin }, { bearer: idToken }]) {
      const base = caller.key ? '/api/v1/admin/webhooks' : '/api/v1/console/admin/webhooks';
      const hook = await send('POST', base, {
        ...caller,
        body: {
          url: 'http://127.0.0.1:9/hook',
          events: ['investigation.completed'],
          description: 'secrets',
        },
      });
      expect(hook.status, hook.text).toBe(201);
      expect(hook.json.secret).toMatch(/^whsec_/);
      remember(hook.json.secret);
      const webhookId: string = hook.json.webhook_id;
      expect((await send('GET', base, caller)).status).toBe(200);
      expect((await send('GET', `${base}/${webhookId}/deliveries`, caller)).status).toBe(200);
      const resigned = await send('POST', `${base}/${webhookId}/rotate-secret`, { ...caller, body: {} });
      expect(resigned.status, resigned.text).toBe(200);
      expect(resigned.json.secret).toMatch(/^whsec_/);
      remember(resigned.json.secret);
      expect((await send('DELETE', `${base}/${webhookId}`, caller)).status).toBe(204);
    }
    // The tenant-wide do-not-share mark and the critical assets, over the API and the console.
    for (const caller of [{ key: admin }, { bearer: idToken }]) {
      const admins = caller.key ? '/api/v1/admin' : '/api/v1/console/admin';
      const marked = await send('POST', `${admins}/do-not-share`, {
        ...caller,
        body: { entity_type: 'ip', value: '198.51.100.99', reason: 'secrets run' },
      });
      expect(marked.status, marked.text).toBe(201);
      expect((await send('GET', `${admins}/do-not-share`, caller)).status).toBe(200);
      const lowered = await send('DELETE', `${admins}/do-not-share/ip/198.51.100.99`, caller);
      expect(lowered.status, lowered.text).toBe(204);
      const asset = await send('POST', `${admins}/critical-assets`, {
        ...caller,
        body: {
          entity_type: 'host',
          value: 'dc01.secrets.example',
          criticality: 'critical',
          owner: 'Identity team',
          reason: 'secrets run',
        },
      });
      expect(asset.status, asset.text).toBe(201);
      expect((await send('GET', `${admins}/critical-assets`, caller)).status).toBe(200);
      const removed = await send('DELETE', `${admins}/critical-assets/host/dc01.secrets.example`, caller);
      expect(removed.status, removed.text).toBe(204);
    }
    expect((await send('GET', '/api/v1/console/connectors', { bearer: idToken })).status).toBe(200);
    // A batch of investigations.
    const batch = await send('POST', '/api/v1/investigations/batch', {
      key: fresh,
      body: { entities: ['203.0.113.68'] },
    });
    expect(batch.status, batch.text).toBeLessThan(300);
    expect(
      (await send('GET', `/api/v1/investigations/batch/${batch.json.batch_id}`, { key: fresh })).status,
    ).toBe(200);
    await service.stepFunctions.idle();
    // The MCP endpoint, by X-API-Key and by Bearer, and its Security Copilot manifest.
    const accept = { accept: 'application/json, text/event-stream' };
    const listed = await send('POST', '/api/v1/mcp', {
      key: fresh,
      headers: accept,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect(listed.status, listed.text).toBe(200);
    const searched = await send('POST', '/api/v1/mcp', {
      bearer: fresh,
      headers: accept,
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search_investigations', arguments: { q: '203.0.113.66' } },
      },
    });
    expect(searched.status, searched.text).toBe(200);
    expect((await send('GET', '/api/v1/mcp', { key: fresh })).status).toBe(405);
    expect((await send('DELETE', '/api/v1/mcp', { bearer: fresh })).status).toBe(405);
    expect((await send('GET', '/plugin/security-copilot-mcp.yaml')).status).toBe(200);
    expect((await send('GET', '/api/v1/console/me', { bearer: fresh })).status).toBe(401);
    await service.stepFunctions.idle();

    // Refusals: forged, spliced, malformed, wrong scope, validation errors, disabled.
    const forged = formatApiKey(generateKeyId(), parseApiKey(fresh)?.secret ?? '');
    expect((await send('GET', '/api/v1/incidents', { key: forged })).status).toBe(401);
    const spliced = formatApiKey(keyId, parseApiKey(admin)?.secret ?? '');
    expect((await send('GET', '/api/v1/incidents', { key: spliced })).status).toBe(401);
    expect((await send('GET', '/api/v1/incidents', { key: tamperedApiKey(fresh) })).status).toBe(401);
    expect((await send('GET', '/api/v1/admin/keys', { key: fresh })).status).toBe(403);
    expect(
      (await send('POST', '/api/v1/investigations/start', { key: fresh, body: { entity: 1 } })).status,
    ).toBe(400);
    const duplicate = await rawRequest(service.baseUrl, {
      method: 'GET',
      path: '/api/v1/incidents',
      headers: { 'x-api-key': [fresh, admin] },
    });
    expect(duplicate.status).toBe(401);
    expect((await send('POST', `/api/v1/admin/keys/${keyId}/disable`, { key: admin })).status).toBe(200);
    expect((await send('GET', '/api/v1/incidents', { key: fresh })).status).toBe(401);
    expect((await send('GET', '/api/v1/incidents', { bearer: client })).status).toBe(401);

    // The run reached every route of the table.
    expect([...touched].sort()).toEqual(ROUTES.map((r) => r.operationId).sort());

    // The capture is not vacuous: DEBUG, INFO and ERROR records of the handlers, steps and authorizer.
    const records = capture.records();
    const messages = new Set(records.map((r) => String(r.message)));
    for (const expected of ['poll read', 'api key rejected', 'request rejected', 'workflow step failed']) {
      expect(messages, expected).toContain(expected);
    }
    const levels = new Set(records.map((r) => String(r.level)));
    for (const level of ['DEBUG', 'INFO', 'ERROR']) expect(levels, level).toContain(level);

    const text = capture.text();
    const leaked = [...secrets].filter((secret) => secret.length >= 16 && text.includes(secret));
    const writes = capture.chunks().length;
    capture.stop();
    console.info(
      `[secrets] ${writes} log writes (${text.length} chars, ${records.length} structured records) searched for ${secrets.size} secret values: ${leaked.length} found`,
    );
    expect(leaked.map((s) => `${s.slice(0, 12)}…`)).toEqual([]);
    // Nor any header dump that would carry one.
    expect(text).not.toMatch(/"x-api-key"\s*:/i);
    expect(text).not.toMatch(/"authorization"\s*:/i);
  });
});
