import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Offline enrichment and the STIX export over HTTP, through the real workflow and the real run-tool handler with the
 * real shipped data: the investigated entity carries its ASN, organisation and country.
 */
let service: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  service = await startTestService({ env: { SIS_FAULT_INJECTION: `step-run-tool@${SLOW}=delay:3000` } });
  ({ apiKey: key } = await service.createKey({ scopes: ['investigations:read', 'investigations:write'] }));
  ({ apiKey: otherKey } = await service.createKey({ scopes: ['investigations:read'] }));
});

const SLOW = 'slow-stix.example.com';

afterAll(async () => {
  await service?.stop();
});

async function investigate(entity: { type: string; value: string }) {
  const res = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity, include_tool_calls: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('completed');
  return res.body;
}

describe('offline enrichment of an investigation', () => {
  it('gives 8.8.8.8 its ASN, AS organisation and country, and says how old the data is', async () => {
    const body = await investigate({ type: 'ip', value: '8.8.8.8' });
    const investigated = body.report.entities.find((e: { role: string }) => e.role === 'investigated');
    expect(investigated.attributes).toMatchObject({
      asn: 15169,
      as_org: 'Google LLC',
      country: 'US',
      network_class: 'cloud',
    });
    const ip = body.tool_calls.find((c: { name: string }) => c.name === 'ip_classification');
    expect(ip.output.facts.ip_data_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const stored = await service.call('GET', `/api/v1/sessions/${body.session_id}`, { key });
    expect(stored.body.report.entities[0].attributes.asn).toBe(15169);
  });

  it('flags a user at a disposable mail provider', async () => {
    const body = await investigate({ type: 'user', value: 'eve@mailinator.com' });
    expect(body.report.entities[0].attributes).toMatchObject({ disposable_email: true });
    expect(body.report.findings.map((f: { finding_id: string }) => f.finding_id)).toContain(
      'account_analysis:disposable_mail_provider',
    );
  });
});

describe('domain names judged on the shipped name data', () => {
  it('names a brand-owned domain as positive benign evidence, and a look-alike of an unlisted brand', async () => {
    const owned = await investigate({ type: 'domain', value: 'googleblog.com' });
    expect(owned.report.findings).toContainEqual(
      expect.objectContaining({
        finding_id: 'domain_analysis:known_brand_domain',
        benign: true,
        evidence_source: 'offline:domain-analysis',
      }),
    );
    const lookalike = await investigate({ type: 'domain', value: 'binance-ether.club' });
    expect(lookalike.report.findings.map((f: { finding_id: string }) => f.finding_id)).toContain(
      'domain_analysis:brand_in_label:binance.com',
    );
    expect(lookalike.report.risk_score).toBeGreaterThanOrEqual(30);
  });
});

describe('GET /api/v1/sessions/{session_id}/stix', () => {
  it('answers the owner a STIX 2.1 bundle marked with the session’s TLP, and refuses others', async () => {
    const start = await service.call('POST', '/api/v1/investigations/start', {
      key,
      body: { entity: { type: 'domain', value: 'paypa1-login.com' }, tlp: 'green' },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const sessionId = start.body.session_id as string;

    const res = await service.call('GET', `/api/v1/sessions/${sessionId}/stix`, { key });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('bundle');
    const types = res.body.objects.map((o: { type: string }) => o.type);
    expect(types).toEqual(
      expect.arrayContaining(['marking-definition', 'identity', 'report', 'domain-name']),
    );
    const report = res.body.objects.find((o: { type: string }) => o.type === 'report');
    expect(report.object_marking_refs).toEqual(['marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb']);
    expect(report.external_references[0].external_id).toBe(sessionId);
    const attack = res.body.objects.filter((o: { type: string }) => o.type === 'attack-pattern');
    expect(attack.length).toBeGreaterThan(0);

    const other = await service.call('GET', `/api/v1/sessions/${sessionId}/stix`, { key: otherKey });
    expect(other.status).toBe(403);
    const unknown = await service.call('GET', '/api/v1/sessions/s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF/stix', { key });
    expect(unknown.status).toBe(404);
  });

  it('is a 409 while the investigation has no report yet', async () => {
    const start = await service.call('POST', '/api/v1/investigations/start', {
      key,
      body: { entity: { type: 'domain', value: SLOW }, background: true },
    });
    expect(start.status).toBe(202);
    const res = await service.call('GET', `/api/v1/sessions/${start.body.session_id}/stix`, { key });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBeDefined();
  });
});
