import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as consume } from '../../../functions/incident-sync-consumer/handler';
import { handler as pull } from '../../../functions/siem-pull/handler';
import { type LocalQueue, startLocalQueue } from '../../../local/sqs';
import { parseConfig, resetConfigForTests } from '../../../shared/config';
import { ConnectorStateRepository } from '../../../shared/store/connector-state-repository';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { IncidentsRepository } from '../../../shared/store/incidents-repository';
import { createIsolatedTables } from '../../support/dynamodb';

/**
 * The pull connectors against a stand-in SIEM on 127.0.0.1 that serves the recorded fixtures in each
 * vendor's API shape and checks each request the way the vendor would (path, auth header, method).
 * The real siem-pull handler reads, maps and enqueues; the real consumer stores.
 */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/siem/${name}.json`, import.meta.url), 'utf8'));
const sentinel = fixture('sentinel-incidents');
const splunk = fixture('splunk-notables');
const elastic = fixture('elastic-alerts');

let siem: Server;
let queue: LocalQueue;
let incidents: IncidentsRepository;
let state: ConnectorStateRepository;
const seen: { method: string; path: string; auth: string | undefined; body: string }[] = [];
let elasticFails = false;

const WORKSPACE =
  '/subscriptions/0000/resourceGroups/soc-rg/providers/Microsoft.OperationalInsights/workspaces/soc';
const API = `${WORKSPACE}/providers/Microsoft.SecurityInsights`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
  });
}

function stripEntities(record: Record<string, unknown>) {
  const { relatedEntities: _, ...rest } = record;
  return rest;
}

beforeAll(async () => {
  siem = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    seen.push({ method: req.method ?? '', path: url.pathname, auth: req.headers.authorization, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const origin = `http://127.0.0.1:${(siem.address() as AddressInfo).port}`;
    if (url.pathname === '/tenant/oauth2/v2.0/token' && body.includes('grant_type=client_credentials')) {
      return json(200, { access_token: 'entra-token', expires_in: 3600, token_type: 'Bearer' });
    }
    if (url.pathname === `${API}/incidents` && req.headers.authorization === 'Bearer entra-token') {
      const [first, second] = sentinel.value;
      if (url.searchParams.get('page') === '2') return json(200, { value: [stripEntities(second)] });
      expect(url.searchParams.get('$filter')).toMatch(/^properties\/lastModifiedTimeUtc ge /);
      return json(200, { value: [stripEntities(first)], nextLink: `${origin}${API}/incidents?page=2` });
    }
    const entities = new RegExp(`^${API}/incidents/([^/]+)/entities$`).exec(url.pathname);
    if (entities && req.method === 'POST') {
      const record = sentinel.value.find((r: { name: string }) => r.name === entities[1]);
      return json(200, { entities: record?.relatedEntities ?? [] });
    }
    if (url.pathname === '/services/search/jobs' && req.headers.authorization === 'Bearer splunk-token') {
      const form = new URLSearchParams(body);
      expect(form.get('exec_mode')).toBe('oneshot');
      expect(form.get('search')).toContain('`notable`');
      return json(200, splunk);
    }
    if (
      url.pathname === '/api/detection_engine/signals/search' &&
      req.headers.authorization === 'ApiKey elastic-key'
    ) {
      if (elasticFails) return json(503, { message: 'unavailable' });
      expect(req.headers['kbn-xsrf']).toBe('true');
      return json(200, elastic);
    }
    json(401, { message: 'unauthorised' });
  });
  await new Promise<void>((ready) => siem.listen(0, '127.0.0.1', () => ready()));
  const origin = `http://127.0.0.1:${(siem.address() as AddressInfo).port}`;

  const tables = await createIsolatedTables();
  queue = await startLocalQueue({ consumer: consume, visibilityTimeoutSeconds: 0.2, batchingWindowMs: 10 });
  Object.assign(process.env, tables.env, {
    SIS_SQS_ENDPOINT: queue.endpoint,
    SIS_INCIDENT_QUEUE_URL: queue.queueUrl,
    SIS_SIEM_SENTINEL_URL: `${origin}${WORKSPACE}`,
    SIS_SIEM_SENTINEL_CREDENTIALS: JSON.stringify({
      tenant_id: 'tenant',
      client_id: 'client',
      client_secret: 'not-a-real-secret',
      token_url: `${origin}/tenant/oauth2/v2.0/token`,
    }),
    SIS_SIEM_SPLUNK_URL: origin,
    SIS_SIEM_SPLUNK_CREDENTIALS: JSON.stringify({ token: 'splunk-token' }),
    SIS_SIEM_ELASTIC_URL: origin,
    SIS_SIEM_ELASTIC_CREDENTIALS: JSON.stringify({ api_key: 'elastic-key' }),
  });
  resetConfigForTests();
  const cfg = parseConfig(process.env);
  const doc = createDocumentClient(cfg);
  incidents = new IncidentsRepository(doc, tables.names.incidents);
  state = new ConnectorStateRepository(doc, tables.names.incidents);
});

afterAll(async () => {
  await queue?.stop();
  await new Promise((done) => siem?.close(done));
});

describe('SIEM pull connectors', () => {
  it('pull each SIEM through its API, store the incidents and advance the watermarks', async () => {
    const results = await pull({});
    expect(results.map((r) => [r.connector, r.fetched, r.enqueued])).toEqual([
      ['sentinel', 2, 2],
      ['splunk', 2, 2],
      ['elastic', 2, 2],
    ]);
    await queue.idle();
    expect(queue.dlq()).toEqual([]);
    const stored = await incidents.list({ limit: 100 });
    expect(stored.incidents.map((i) => i.source).sort()).toEqual([
      'elastic',
      'elastic',
      'sentinel',
      'sentinel',
      'splunk',
      'splunk',
    ]);
    // Sentinel's entities came from the separate entities call.
    const fromSentinel = stored.incidents.filter((i) => i.source === 'sentinel');
    expect(fromSentinel.some((i) => i.entities.length > 0)).toBe(true);
    for (const connector of ['sentinel', 'splunk', 'elastic']) {
      expect(await state.get(connector)).toMatchObject({
        last_run_outcome: 'ok',
        watermark: expect.any(String),
      });
    }
    expect(seen.some((r) => r.body.includes('not-a-real-secret') && r.path.endsWith('/token'))).toBe(true);
  });

  it('re-reading the same records changes nothing, and a failing SIEM does not stop the others', async () => {
    const before = await state.get('splunk');
    elasticFails = true;
    await expect(pull({})).rejects.toThrow(/1 SIEM connector run/);
    elasticFails = false;
    await queue.idle();
    expect((await incidents.list({ limit: 100 })).incidents).toHaveLength(6);
    const after = await state.get('splunk');
    expect(after.version).toBe(before.version + 1);
    expect(after.watermark! >= before.watermark!).toBe(true);
    expect(await state.get('elastic')).toMatchObject({
      last_run_outcome: 'failed',
      last_error: expect.stringContaining('503'),
    });
    const onlySplunk = await pull({ connector: 'splunk' });
    expect(onlySplunk.map((r) => r.connector)).toEqual(['splunk']);
  });
});
