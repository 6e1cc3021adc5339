import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IntelFakeServer, startIntelFakeServer } from '../../support/intel-fake-server';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Issue #27 item 2 and issue 36 item 4: TLP travels with the knowledge graph, and red hides only
 * what red sessions contributed. A node only red sessions named is left out of API-key graph answers
 * (a 404 that says it is withheld, dropped from others' neighbourhoods), and a later amber
 * investigation never sends it to a third-party source (lookups use max(session TLP, the node's
 * shared TLP)); a node an incident or a lower session named too is shared at amber at most. Through the whole local runtime,
 * with AbuseIPDB pointed at the local fake provider.
 */
const KEYS = { abuseipdb: 'abuseipdb-test-key-0001' };
const SECRET_IP = '185.220.101.77';
const PEER_IP = '185.220.101.78';
const RED_ONLY_IP = '185.220.101.79';

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

  it('hides nothing an incident named when a red investigation names it too (issue 36, item 4)', async () => {
    const red = await investigate(SECRET_IP, 'red');
    expect(red.tool_calls.find((c) => c.name === 'intel_abuseipdb')).toMatchObject({ status: 'skipped' });

    // The red session contributed nothing new about the entity: it stays answered and listed.
    expect((await graphOf(SECRET_IP)).status).toBe(200);
    const peer = await graphOf(PEER_IP);
    expect(peer.status).toBe(200);
    expect(JSON.stringify(peer.body)).toContain(SECRET_IP);
    // And a later amber investigation may still look it up: red did not switch lookups off for everyone.
    const before = fake.requestsFor('abuseipdb', SECRET_IP).length;
    const amber = await investigate(SECRET_IP, 'amber');
    expect(amber.tool_calls.find((c) => c.name === 'intel_abuseipdb')).toMatchObject({ status: 'succeeded' });
    expect(fake.requestsFor('abuseipdb', SECRET_IP).length).toBe(before + 1);
  });

  it('withholds an entity only red investigations named, saying so, and never sends it to a third party', async () => {
    await investigate(RED_ONLY_IP, 'red');
    const own = await graphOf(RED_ONLY_IP);
    expect(own.status).toBe(404);
    // Not an absence: the answer says the entity is withheld.
    expect(own.body.error.message).toContain('withholds');
    expect(own.body.error.message).toContain('TLP:RED');
    expect(own.body.error.message).not.toContain('has named it yet');
    const amber = await investigate(RED_ONLY_IP, 'amber');
    expect(amber.tool_calls.find((c) => c.name === 'intel_abuseipdb')).toMatchObject({
      status: 'skipped',
      error: expect.stringMatching(/TLP:RED/),
    });
    expect(fake.requestsFor('abuseipdb', RED_ONLY_IP)).toHaveLength(0);
  });

  it('still looks up an entity that no red investigation wrote', async () => {
    const amber = await investigate(PEER_IP, 'amber');
    expect(amber.tool_calls.find((c) => c.name === 'intel_abuseipdb')).toMatchObject({ status: 'succeeded' });
    expect(fake.requestsFor('abuseipdb', PEER_IP)).toHaveLength(1);
  });
});
