import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/local-service';

/**
 * Offline enrichment over HTTP, through the real workflow and the real run-tool handler with the
 * real shipped data: the investigated entity carries its ASN, organisation and country.
 */
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService();
  ({ apiKey: key } = await service.createKey({ scopes: ['investigations:read', 'investigations:write'] }));
});

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
