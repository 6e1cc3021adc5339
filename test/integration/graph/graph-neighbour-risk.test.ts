import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoMeter, startDynamoMeter } from '../../../bench/lib/dynamo-meter';
import { signInToConsole } from '../../support/console-sign-in';
import { dynamodbEndpoint } from '../../support/dynamodb';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * Issue #28: graph neighbours carry the latest risk score of their node, so the console can colour
 * them by risk. Over HTTP through the whole local runtime: two entities of one incident are
 * investigated (one at TLP:RED, still shared as an incident named it), then the neighbourhood of a third is asked for by an API key and
 * by a console user. The nodes are read in one batch per depth, however many neighbours there are
 * (metered at the DynamoDB hop).
 */
const ANALYST_PASSWORD = 'graph-risk-analyst-password';
const USER = 'risk.user@contoso.example';
const SCORED = '203.0.113.50';
const SECRET = '198.51.100.60';
const PLAIN = 'unscored.example.net';
/** Linked to the user only, so the investigated addresses are two steps from it. */
const FAR = 'edge.example.org';
/**
 * Co-occurring hosts, so a per-neighbour read would show in the counts; the user keeps under 10
 * links, as depth 2 reads 10 edges per neighbour.
 */
const HOSTS = Array.from({ length: 5 }, (_, i) => `ws-risk-${i}`);

let meter: DynamoMeter;
let service: TestService;
let analystKey: string;
let plugin: string;
let consoleToken: string;

beforeAll(async () => {
  meter = await startDynamoMeter(dynamodbEndpoint());
  service = await startTestService({
    dynamodbEndpoint: meter.endpoint,
    env: { SIS_CONSOLE_ANALYST_PASSWORD: ANALYST_PASSWORD },
  });
  analystKey = (await service.createKey({ name: 'risk analyst' })).apiKey;
  plugin = (await service.createKey({ name: 'risk plugin', scopes: ['graph:read'] })).apiKey;
  consoleToken = (await signInToConsole(service.baseUrl, { username: 'analyst', password: ANALYST_PASSWORD }))
    .idToken;
  const pushed = await service.call('POST', '/api/v1/incidents/ingest', {
    key: analystKey,
    body: {
      incidents: [
        {
          source: 'custom',
          source_id: 'risk-1',
          title: 'Sign-ins from two addresses',
          severity: 'high',
          status: 'new',
          created_at: '2026-11-20T10:00:00Z',
          entities: [
            { type: 'user', value: USER },
            SCORED,
            SECRET,
            PLAIN,
            ...HOSTS.map((value) => ({ type: 'host', value })),
          ],
        },
        {
          source: 'custom',
          source_id: 'risk-2',
          title: 'Phishing link clicked',
          severity: 'medium',
          status: 'new',
          created_at: '2026-11-21T10:00:00Z',
          entities: [{ type: 'user', value: USER }, FAR],
        },
      ],
    },
  });
  expect(pushed.status).toBe(202);
  await service.incidentQueue.idle();
});

afterAll(async () => {
  await service?.stop();
  await meter?.stop();
});

async function investigate(value: string, tlp: string): Promise<number> {
  const started = await service.call('POST', '/api/v1/investigations/start', {
    key: analystKey,
    body: { entity: { type: 'ip', value }, tlp },
  });
  expect(started.status).toBe(200);
  expect(started.body.status).toBe('completed');
  return started.body.report.risk_score as number;
}

async function consoleGraph(path: string) {
  const response = await request(`${service.baseUrl}/api/v1/console/graph/entity/${path}`, {
    headers: { authorization: `Bearer ${consoleToken}` },
  });
  return { status: response.statusCode, body: (await response.body.json()) as any };
}

type Neighbour = { type: string; value: string; risk_score?: number; depth: number };
const byValue = (neighbours: Neighbour[]) => new Map(neighbours.map((n) => [n.value, n]));

describe('risk scores on graph neighbours', () => {
  let scoredRisk: number;
  let secretRisk: number;

  it('answers no score for a neighbour no investigation scored', async () => {
    const before = await service.call('GET', `/api/v1/graph/entity/${encodeURIComponent(USER)}?type=user`, {
      key: plugin,
    });
    expect(before.status).toBe(200);
    expect(before.body.neighbors).toHaveLength(4 + HOSTS.length);
    for (const neighbour of before.body.neighbors) expect(neighbour).not.toHaveProperty('risk_score');
  });

  it("gives each investigated neighbour its latest investigation's score, and API keys an incident-named red node", async () => {
    scoredRisk = await investigate(SCORED, 'amber');
    secretRisk = await investigate(SECRET, 'red');

    meter.label = 'plugin graph';
    const asKey = await service.call('GET', `/api/v1/graph/entity/${encodeURIComponent(USER)}?type=user`, {
      key: plugin,
    });
    meter.label = undefined;
    expect(asKey.status).toBe(200);
    const seen = byValue(asKey.body.neighbors);
    expect(seen.get(SCORED)?.risk_score).toBe(scoredRisk);
    // Issue 36 item 4: red hides only what red sessions contributed. An incident named SECRET, so the
    // red investigation does not withhold it from API keys (a node only red sessions named is withheld:
    // graph-tlp.test.ts).
    expect(seen.get(SECRET)).toBeDefined();
    expect(seen.get(PLAIN)).toBeDefined();
    expect(seen.get(PLAIN)).not.toHaveProperty('risk_score');
    for (const host of HOSTS) expect(seen.get(host)).not.toHaveProperty('risk_score');

    // The centre node and the neighbours' nodes: two BatchGetItem, no read per neighbour.
    const graphReads = meter.calls.filter((c) => c.label === 'plugin graph' && c.table.endsWith('-graph'));
    expect(graphReads.filter((c) => c.operation === 'BatchGetItem')).toHaveLength(2);
    expect(graphReads.filter((c) => c.operation === 'GetItem')).toHaveLength(0);
    expect(graphReads.filter((c) => c.operation === 'Query')).toHaveLength(1);
  });

  it('shows a console user the red neighbour with its score too', async () => {
    const answer = await consoleGraph(`${encodeURIComponent(USER)}?type=user`);
    expect(answer.status).toBe(200);
    const seen = byValue(answer.body.neighbors);
    expect(seen.get(SECRET)?.risk_score).toBe(secretRisk);
    expect(seen.get(SCORED)?.risk_score).toBe(scoredRisk);
    expect(seen.get(PLAIN)).not.toHaveProperty('risk_score');
  });

  it('scores depth-2 neighbours with one more batch read', async () => {
    meter.label = 'depth 2';
    const answer = await service.call('GET', `/api/v1/graph/entity/${FAR}?type=domain&depth=2`, {
      key: plugin,
    });
    meter.label = undefined;
    expect(answer.status).toBe(200);
    const seen = byValue(answer.body.neighbors);
    expect(seen.get(USER)).toMatchObject({ depth: 1 });
    expect(seen.get(USER)).not.toHaveProperty('risk_score');
    expect(seen.get(SCORED)).toMatchObject({ depth: 2, risk_score: scoredRisk });
    expect(seen.get(PLAIN)).toMatchObject({ depth: 2 });
    expect(seen.get(PLAIN)).not.toHaveProperty('risk_score');
    expect(seen.get(SECRET)).toMatchObject({ depth: 2 }); // incident-named: shared (issue 36 item 4)
    const graphReads = meter.calls.filter((c) => c.label === 'depth 2' && c.table.endsWith('-graph'));
    // The centre node, the depth-1 nodes and the depth-2 nodes.
    expect(graphReads.filter((c) => c.operation === 'BatchGetItem')).toHaveLength(3);
    expect(graphReads.filter((c) => c.operation === 'GetItem')).toHaveLength(0);
  });
});
