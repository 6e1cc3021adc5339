import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../../support/console-sign-in';
import { type IntelFakeServer, startIntelFakeServer } from '../../support/intel-fake-server';
import { errorShape, startTestService, type TestService } from '../../support/local-service';

/**
 * Issue 36 item 4: the tenant-wide "do not share" mark, over HTTP (the real gateway, authorizer,
 * handlers and DynamoDB Local; AbuseIPDB pointed at the local fake provider). Only an admin marks
 * and lowers, with a reason, audited; a marked entity is never looked up for any key and API-key
 * graph answers say it is withheld; lowered, it is shared again.
 */
const KEYS = { abuseipdb: 'abuseipdb-test-key-0001' };
const PASSWORD = 'admin-test-password';
const MARKED_IP = '185.220.101.91';

let fake: IntelFakeServer;
let service: TestService;
let analyst: string;
let other: string;
let plugin: string;
let adminToken: string;

beforeAll(async () => {
  fake = await startIntelFakeServer(KEYS);
  service = await startTestService({
    env: {
      SIS_INTEL_ABUSEIPDB_API_KEY: KEYS.abuseipdb,
      SIS_INTEL_ABUSEIPDB_URL: fake.urlFor('abuseipdb'),
      SIS_CONSOLE_ADMIN_PASSWORD: PASSWORD,
    },
  });
  analyst = (await service.createKey({ name: 'analyst' })).apiKey;
  other = (await service.createKey({ name: 'other' })).apiKey;
  plugin = (await service.createKey({ name: 'plugin', scopes: ['graph:read'] })).apiKey;
  adminToken = (await signInToConsole(service.baseUrl, { username: 'admin', password: PASSWORD })).idToken;
});

afterAll(async () => {
  await service?.stop();
  await fake?.close();
});

async function investigate(key: string) {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: {
      entity: { type: 'ip', value: MARKED_IP },
      tlp: 'amber',
      include_tool_calls: true,
    },
  });
  expect(started.status).toBe(200);
  expect(started.body.status).toBe('completed');
  const calls = started.body.tool_calls as { name: string; status: string; error?: string }[];
  return calls.find((c) => c.name === 'intel_abuseipdb');
}

async function auditHead() {
  const response = await fetch(`${service.baseUrl}/api/v1/console/admin/audit`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { entries: Record<string, unknown>[] }).entries[0];
}

describe('do not share', () => {
  it('is admin-only and requires a reason', async () => {
    const body = { entity_type: 'ip', value: MARKED_IP, reason: 'Internal honeypot' };
    const denied = await service.call('POST', '/api/v1/admin/do-not-share', { key: analyst, body });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject(errorShape('forbidden'));
    const unlisted = await service.call('GET', '/api/v1/admin/do-not-share', { key: analyst });
    expect(unlisted.status).toBe(403);
    const noReason = await service.call('POST', '/api/v1/admin/do-not-share', {
      key: service.adminKey,
      body: { ...body, reason: '\u200b\u200b' },
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.code).toBe('validation_error');
  });

  it('marks: no key looks it up, API-key graph answers say withheld, audited; lowered: shared again', async () => {
    // Named in the graph first (an amber investigation, looked up once).
    expect(await investigate(analyst)).toMatchObject({ status: 'succeeded' });
    expect(fake.requestsFor('abuseipdb', MARKED_IP).length).toBe(1);
    expect((await service.call('GET', `/api/v1/graph/entity/${MARKED_IP}`, { key: plugin })).status).toBe(
      200,
    );

    const marked = await service.call('POST', '/api/v1/admin/do-not-share', {
      key: service.adminKey,
      body: { entity_type: 'ip', value: ` ${MARKED_IP} `, reason: 'Internal honeypot' },
    });
    expect(marked.status).toBe(201);
    expect(marked.body).toMatchObject({ entity_type: 'ip', value: MARKED_IP, reason: 'Internal honeypot' });
    expect(await auditHead()).toMatchObject({
      action: 'do_not_share_mark',
      details: { type: 'ip', value: MARKED_IP, reason: 'Internal honeypot' },
    });
    const listed = await service.call('GET', '/api/v1/admin/do-not-share', { key: service.adminKey });
    expect(listed.body.marks).toEqual([expect.objectContaining({ value: MARKED_IP })]);

    const sent = fake.requestsFor('abuseipdb', MARKED_IP).length;
    for (const key of [analyst, other]) {
      const call = await investigate(key);
      expect(call).toMatchObject({ status: 'skipped' });
      expect(call?.error).toContain('do not share');
    }
    expect(fake.requestsFor('abuseipdb', MARKED_IP).length).toBe(sent);
    const withheld = await service.call('GET', `/api/v1/graph/entity/${MARKED_IP}`, { key: plugin });
    expect(withheld.status).toBe(404);
    expect(withheld.body.error.message).toContain('withholds');
    expect(withheld.body.error.message).toContain('do not share');

    const lowered = await service.call('DELETE', `/api/v1/admin/do-not-share/ip/${MARKED_IP}`, {
      key: service.adminKey,
    });
    expect(lowered.status).toBe(204);
    expect(await auditHead()).toMatchObject({
      action: 'do_not_share_lower',
      details: { type: 'ip', value: MARKED_IP, reason: 'Internal honeypot' },
    });
    expect(
      (await service.call('DELETE', `/api/v1/admin/do-not-share/ip/${MARKED_IP}`, { key: service.adminKey }))
        .status,
    ).toBe(404);
    // Shared again (answered from the lookup cache the first investigation filled).
    expect(await investigate(other)).toMatchObject({ status: 'succeeded' });
    expect((await service.call('GET', `/api/v1/graph/entity/${MARKED_IP}`, { key: plugin })).status).toBe(
      200,
    );
  });
});

// Issue 35 item 5: critical assets share this runtime (the same allowlist functions serve them).
describe('critical assets over HTTP', () => {
  it('admin-only, hygienic, audited; an investigation of the asset coordinates containment with its owner', async () => {
    const body = {
      entity_type: 'host',
      value: 'DC01',
      criticality: 'critical',
      owner: 'Identity team',
      reason: 'Domain controller',
    };
    const refused = await service.call('POST', '/api/v1/admin/critical-assets', { key: analyst, body });
    expect(refused.status).toBe(403);
    const hidden = await service.call('POST', '/api/v1/admin/critical-assets', {
      key: service.adminKey,
      body: { ...body, owner: 'Identity\u200b team' },
    });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toMatchObject(errorShape('validation_error'));

    const added = await service.call('POST', '/api/v1/admin/critical-assets', {
      key: service.adminKey,
      body,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      entity_type: 'host',
      value: 'dc01',
      criticality: 'critical',
      owner: 'Identity team',
    });
    expect(await auditHead()).toMatchObject({
      action: 'critical_asset_add',
      details: { type: 'host', value: 'dc01', criticality: 'critical', owner: 'Identity team' },
    });
    expect(
      (await service.call('POST', '/api/v1/admin/critical-assets', { key: service.adminKey, body })).status,
    ).toBe(409);
    const consoleList = await fetch(`${service.baseUrl}/api/v1/console/admin/critical-assets`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(((await consoleList.json()) as { assets: unknown[] }).assets).toEqual([
      expect.objectContaining({ value: 'dc01', owner: 'Identity team' }),
    ]);

    const report = await service.call('POST', '/api/v1/investigations/start', {
      key: analyst,
      body: { entity: { type: 'host', value: 'dc01' } },
    });
    expect(report.status).toBe(200);
    const findings = report.body.report.findings as { finding_id: string; title: string }[];
    expect(findings.find((f) => f.finding_id === 'prior_investigations:critical_asset')?.title).toBe(
      'Critical asset (critical), owner Identity team: Domain controller',
    );
    expect((report.body.report.recommendations as string[]).join('\n')).not.toMatch(/Isolate dc01/);

    const removed = await service.call('DELETE', '/api/v1/admin/critical-assets/host/dc01', {
      key: service.adminKey,
    });
    expect(removed.status).toBe(204);
    expect(await auditHead()).toMatchObject({ action: 'critical_asset_remove', details: { value: 'dc01' } });
    expect(
      (await service.call('DELETE', '/api/v1/admin/critical-assets/host/dc01', { key: service.adminKey }))
        .status,
    ).toBe(404);
  });
});
