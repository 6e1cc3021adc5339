import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IntelFakeServer, startIntelFakeServer } from '../../support/intel-fake-server';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Issue #27 item 2: TLP travels with the knowledge graph. A node keeps the highest TLP of the
 * sessions that wrote it; a TLP:RED node is left out of API-key graph answers (404 for the node
 * itself, dropped from others' neighbourhoods), and a later amber investigation never sends it to a
 * third-party source: lookups use max(session TLP, entity TLP). Through the whole local runtime,
 * with AbuseIPDB pointed at the local fake provider.
 */
const KEYS = { abuseipdb: 'abuseipdb-test-key-0001' };
const SECRET_IP = '185.220.101.77';
const PEER_IP = '185.220.101.78';

let fake: IntelFakeServer;
let service: TestService;
let analyst: string;
let plugin: string;

beforeAll(async () => {
  fake = await startIntelFakeServer(KEYS);
  service = await startTestService({
    env: {
      SIS_INTEL_ABUSEIPDB_API_KEY: KEYS.abuseipdb,
      SIS_INTEL_ABUSEIPDB_URL: fake.urlFor('abuseipdb'),
    },
  });
  analyst = (await service.createKey({ name: 'analyst' })).apiKey;
  plugin = (await service.createKey({ name: 'plugin', scopes: ['graph:read'] })).apiKey;
});

afterAll(async () => {
  await service?.stop();
  await fake?.close();
});

async function investigate(value: string, tlp: string) {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key: analyst,
    body: { entity: { type: 'ip', value }, tlp, include_tool_calls: true },
  });
  expect(started.status).toBe(200);
  expect(started.body.status).toBe('completed');
  return started.body as { tool_calls: { name: string; status: string; error?: string }[] };
}

const graphOf = (value: string) => service.call('GET', `/api/v1/graph/entity/${value}`, { key: plugin });

describe('TLP through the knowledge graph', () => {
  it('lists a neighbour while nothing marks it red', async () => {
    const pushed = await service.call('POST', '/api/v1/incidents/ingest', {
      key: analyst,
      body: {
        incidents: [
          {
            source: 'custom',
            source_id: 'fw-5001',
            title: 'Beaconing between two hosts',
            severity: 'high',
            status: 'new',
            created_at: '2026-11-20T10:00:00Z',
            entities: [SECRET_IP, PEER_IP],
          },
        ],
      },
    });
    expect(pushed.status).toBe(202);
    await service.incidentQueue.idle();
    const peer = await graphOf(PEER_IP);
    expect(peer.status).toBe(200);
    expect(JSON.stringify(peer.body)).toContain(SECRET_IP);
    expect((await graphOf(SECRET_IP)).status).toBe(200);
  });

  it('keeps a node investigated at red out of API-key graph answers', async () => {
    const red = await investigate(SECRET_IP, 'red');
    expect(red.tool_calls.find((c) => c.name === 'intel_abuseipdb')).toMatchObject({ status: 'skipped' });

    const own = await graphOf(SECRET_IP);
    expect(own.status).toBe(404);
    const peer = await graphOf(PEER_IP);
    expect(peer.status).toBe(200);
    expect(JSON.stringify(peer.body)).not.toContain(SECRET_IP);
  });

  it('never sends a red node to a third party from a later amber investigation', async () => {
    const before = fake.requestsFor('abuseipdb', SECRET_IP).length;
    const amber = await investigate(SECRET_IP, 'amber');
    expect(amber.tool_calls.find((c) => c.name === 'intel_abuseipdb')).toMatchObject({
      status: 'skipped',
      error: expect.stringMatching(/TLP:RED/),
    });
    expect(fake.requestsFor('abuseipdb', SECRET_IP).length).toBe(before);
    // The amber run did not lower the node: still left out.
    expect((await graphOf(SECRET_IP)).status).toBe(404);
  });

  it('still looks up an entity that no red investigation wrote', async () => {
    const amber = await investigate(PEER_IP, 'amber');
    expect(amber.tool_calls.find((c) => c.name === 'intel_abuseipdb')).toMatchObject({ status: 'succeeded' });
    expect(fake.requestsFor('abuseipdb', PEER_IP)).toHaveLength(1);
  });
});
