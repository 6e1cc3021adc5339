import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../../support/console-sign-in';
import { type FeedServer, FIXTURE_DIR, startFeedServer } from '../../support/feed-server';
import { startTestService, type TestService } from '../../support/local-service';
import { sis } from '../../support/sis-cli';

/**
 * The public feeds end to end through the local runtime: the admin routes refresh from a local
 * server speaking each publisher's format (and file://), investigations match the compiled sets
 * without any request to a feed, and a feed answering garbage, 404, an endless body or nothing keeps
 * its last good copy with status error while the others refresh and investigations complete.
 */
let feeds: FeedServer;
let service: TestService;
let key: string;

const CONSOLE_PASSWORDS = { admin: 'feeds-admin-pass-1', analyst: 'feeds-analyst-pass-1' };

const PATHS = {
  SPAMHAUS_DROP: ['/drop_v4.json', '/drop_v6.json'],
  FEODO: ['/ipblocklist.json'],
  TOR_EXITS: ['/torbulkexitlist'],
  ET_COMPROMISED: ['/compromised-ips.txt'],
  TRANCO: ['/top-1m.csv.zip'],
  CINS: ['/ci-badguys.txt'],
} as const;

beforeAll(async () => {
  feeds = await startFeedServer({
    '/drop_v4.json': 'drop_v4.jsonl',
    '/drop_v6.json': 'drop_v6.jsonl',
    '/ipblocklist.json': 'feodo-ipblocklist.json',
    '/torbulkexitlist': 'torbulkexitlist',
    '/compromised-ips.txt': 'compromised-ips.txt',
    '/top-1m.csv.zip': 'top-1m.csv.zip',
    '/ci-badguys.txt': 'ci-badguys.txt',
  });
  const env: Record<string, string> = {
    SIS_FEED_TIMEOUT_SECONDS: '2',
    SIS_FEED_MAX_BYTES: String(1024 * 1024),
    SIS_FEED_OPENPHISH_URL: pathToFileURL(join(FIXTURE_DIR, 'openphish-feed.txt')).href,
    SIS_FEED_CINS_ENABLED: 'false',
    SIS_CONSOLE_ADMIN_PASSWORD: CONSOLE_PASSWORDS.admin,
    SIS_CONSOLE_ANALYST_PASSWORD: CONSOLE_PASSWORDS.analyst,
  };
  // SIS_PUBLIC_SOURCES=on enables the feeds the stack enables by default (these six, not CINS); the
  // one keyless connector, explicitly enabled, points at a closed port: it fails, the run does not.
  env.SIS_PUBLIC_SOURCES = 'on';
  env.SIS_INTEL_INTERNETDB_ENABLED = 'true';
  env.SIS_INTEL_INTERNETDB_URL = `http://127.0.0.1:${await closedPort()}`;
  for (const [name, paths] of Object.entries(PATHS)) {
    env[`SIS_FEED_${name}_URL`] = paths.map((p) => feeds.url(p)).join(' ');
  }
  service = await startTestService({ env });
  await service.feedsStartup;
  ({ apiKey: key } = await service.createKey({ scopes: ['investigations:read', 'investigations:write'] }));
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

afterAll(async () => {
  await service?.stop();
  await feeds?.stop();
});

const byName = (list: { name: string }[]) =>
  Object.fromEntries(list.map((f) => [f.name, f])) as Record<string, any>;

async function investigate(value: string, type = 'ip') {
  const res = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity: { type, value }, include_tool_calls: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('completed');
  return res.body;
}

describe('public feeds', () => {
  it('the local runtime refreshed the enabled feeds at start-up; disabled ones are listed, never fetched', async () => {
    const res = await service.call('GET', '/api/v1/admin/feeds', { key: service.adminKey });
    expect(res.status).toBe(200);
    const list = byName(res.body.feeds);
    expect(Object.keys(list)).toHaveLength(9);
    expect(list.FEODO).toMatchObject({ enabled: true, status: 'ok', indicator_count: 2 });
    expect(list.FEODO.last_refreshed_at).toMatch(/^\d{4}-/);
    expect(list.CINS).toMatchObject({ enabled: false, status: 'disabled' });
    expect(list.URLHAUS).toMatchObject({ enabled: false, status: 'disabled', last_refreshed_at: null });
    expect(feeds.requests.get('/ipblocklist.json')).toBe(1);
    expect(feeds.requests.get('/ci-badguys.txt')).toBeUndefined();
  });

  it('refreshes on demand from the documented formats, http and file://, never fetching a disabled feed', async () => {
    const res = await service.call('POST', '/api/v1/admin/feeds/refresh', { key: service.adminKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = byName(res.body.feeds);
    for (const name of ['SPAMHAUS_DROP', 'FEODO', 'TOR_EXITS', 'ET_COMPROMISED', 'TRANCO', 'OPENPHISH']) {
      expect(list[name].status, `${name}: ${list[name].error}`).toBe('ok');
    }
    expect(list.SPAMHAUS_DROP.indicator_count).toBe(4);
    expect(list.FEODO.indicator_count).toBe(2);
    expect(list.TRANCO.indicator_count).toBe(5);
    expect(list.OPENPHISH.indicator_count).toBe(2);
    expect(list.OPENPHISH.url).toMatch(/^file:\/\//);
    expect(feeds.requests.get('/ci-badguys.txt')).toBeUndefined();
    const listed = await service.call('GET', '/api/v1/admin/feeds', { key: service.adminKey });
    expect(byName(listed.body.feeds).FEODO.last_refreshed_at).toBe(list.FEODO.last_refreshed_at);
  });

  it('an investigation matches the compiled sets without a request to any feed', async () => {
    const before = feeds.total();
    const body = await investigate('198.51.100.23');
    expect(feeds.total()).toBe(before);
    const call = body.tool_calls.find((c: { name: string }) => c.name === 'feeds');
    expect(call.status).toBe('succeeded');
    const ids = body.report.findings.map((f: { finding_id: string }) => f.finding_id);
    expect(ids).toEqual(expect.arrayContaining(['feeds:listed_feodo', 'feeds:listed_spamhaus_drop']));
    const feodo = body.report.findings.find(
      (f: { finding_id: string }) => f.finding_id === 'feeds:listed_feodo',
    );
    expect(feodo.evidence_source).toBe('feed:FEODO');
    // The coverage list: each feed read on its own, the closed port a failed connector with its reason.
    const sources = byName(body.report.coverage.sources);
    expect(sources.FEODO).toMatchObject({ kind: 'feed', status: 'consulted', reading: 'malicious' });
    expect(sources.TOR_EXITS).toMatchObject({ kind: 'feed', status: 'consulted' });
    expect(sources.CINS).toMatchObject({ kind: 'feed', status: 'disabled' });
    expect(sources.TRANCO).toMatchObject({ status: 'skipped' });
    expect(sources.internetdb).toMatchObject({
      kind: 'connector',
      status: 'skipped',
      reason: expect.stringContaining('never sent to a third-party source'),
    });
    expect(sources.abuseipdb).toMatchObject({
      status: 'disabled',
      reason: expect.stringContaining('API_KEY'),
    });
    expect(body.report.summary).not.toContain('No outside source was consulted');
    // A public address goes to the connector, whose closed port fails it with its reason; the run completes.
    const publicIp = byName((await investigate('9.9.9.9')).report.coverage.sources);
    expect(publicIp.internetdb).toMatchObject({ kind: 'connector', status: 'failed' });
    expect(publicIp.internetdb.reason).toMatch(/\S/);
    expect(publicIp.FEODO).toMatchObject({ status: 'consulted', reading: 'no_opinion' });
    expect(feodo.description).toContain('first seen 2024-11-20');
    expect(body.report.verdict).toBe('malicious');
    const popular = await investigate('google.com', 'domain');
    const tranco = popular.report.findings.find(
      (f: { finding_id: string }) => f.finding_id === 'feeds:popular_tranco',
    );
    expect(tranco).toMatchObject({ benign: true, score: 0 });
  });

  it('a feed answering garbage, 404, an endless body or nothing keeps its last good copy with the reason', async () => {
    feeds.set('/ipblocklist.json', 'garbage');
    feeds.set('/torbulkexitlist', 'not_found');
    feeds.set('/drop_v6.json', 'endless');
    feeds.set('/compromised-ips.txt', 'hang');
    const started = Date.now();
    const res = await service.call('POST', '/api/v1/admin/feeds/refresh', { key: service.adminKey });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    const list = byName(res.body.feeds);
    expect(list.FEODO).toMatchObject({ status: 'error', indicator_count: 2 });
    expect(list.FEODO.error).toContain('no valid indicator');
    expect(list.TOR_EXITS).toMatchObject({ status: 'error', indicator_count: 3 });
    expect(list.TOR_EXITS.error).toContain('HTTP 404');
    expect(list.SPAMHAUS_DROP).toMatchObject({ status: 'error', indicator_count: 4 });
    expect(list.SPAMHAUS_DROP.error).toContain('cap');
    expect(list.ET_COMPROMISED).toMatchObject({ status: 'error', indicator_count: 2 });
    expect(list.ET_COMPROMISED.error).toContain('did not finish within 2 s');
    expect(list.TRANCO.status).toBe('ok');
    expect(list.OPENPHISH.status).toBe('ok');
    // The last good copies still match, and the investigation completes.
    const body = await investigate('198.51.100.23');
    const ids = body.report.findings.map((f: { finding_id: string }) => f.finding_id);
    expect(ids).toEqual(expect.arrayContaining(['feeds:listed_feodo', 'feeds:listed_spamhaus_drop']));
    for (const path of ['/ipblocklist.json', '/torbulkexitlist', '/drop_v6.json', '/compromised-ips.txt'])
      feeds.set(path, 'file');
  });

  it('refreshes only the named feeds; an unknown name is a 400 and a non-admin key a 403', async () => {
    const before = feeds.requests.get('/top-1m.csv.zip');
    const res = await service.call('POST', '/api/v1/admin/feeds/refresh', {
      key: service.adminKey,
      body: { names: ['FEODO'] },
    });
    expect(res.status).toBe(200);
    expect(byName(res.body.feeds).FEODO.status).toBe('ok');
    expect(feeds.requests.get('/top-1m.csv.zip')).toBe(before);
    const bad = await service.call('POST', '/api/v1/admin/feeds/refresh', {
      key: service.adminKey,
      body: { names: ['NOPE'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    const denied = await service.call('GET', '/api/v1/admin/feeds', { key });
    expect(denied.status).toBe(403);
  });
});

describe('sis feeds', () => {
  const cliEnv = () => ({
    SIS_API_URL: service.baseUrl,
    SIS_API_KEY: service.adminKey,
    SIS_CONFIG_DIR: join(FIXTURE_DIR, 'no-such-config'),
  });

  it('lists the feeds as a table and as the documented JSON', async () => {
    const text = await sis(['feeds', 'list'], cliEnv());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/FEODO\s+yes\s+ok\s+2/);
    expect(text.stdout).toMatch(/CINS\s+no\s+disabled/);
    const json = await sis(['feeds', 'list', '--json'], cliEnv());
    expect(JSON.parse(json.stdout).feeds).toHaveLength(9);
  });

  it('refreshes the named feeds and exits 1 when one is left in error', async () => {
    const ok = await sis(['feeds', 'refresh', 'tor_exits', '--json'], cliEnv());
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).feeds.find((f: { name: string }) => f.name === 'TOR_EXITS').status).toBe(
      'ok',
    );
    feeds.set('/torbulkexitlist', 'not_found');
    const failed = await sis(['feeds', 'refresh', 'TOR_EXITS'], cliEnv());
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('HTTP 404');
    feeds.set('/torbulkexitlist', 'file');
  });
});

describe('Admin > Feeds in the console', () => {
  const consoleCall = async (method: string, path: string, token: string) => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify({ names: ['TRANCO'] }) } : {}),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('lists and refreshes for a console admin, refuses an analyst', async () => {
    const admin = await signInToConsole(service.baseUrl, {
      username: 'admin',
      password: CONSOLE_PASSWORDS.admin,
    });
    const analyst = await signInToConsole(service.baseUrl, {
      username: 'analyst',
      password: CONSOLE_PASSWORDS.analyst,
    });
    const listed = await consoleCall('GET', '/api/v1/console/admin/feeds', admin.idToken);
    expect(listed.status).toBe(200);
    expect(byName(listed.body.feeds).TRANCO.status).toBe('ok');
    const before = feeds.requests.get('/top-1m.csv.zip') ?? 0;
    const refreshed = await consoleCall('POST', '/api/v1/console/admin/feeds/refresh', admin.idToken);
    expect(refreshed.status).toBe(200);
    expect(feeds.requests.get('/top-1m.csv.zip')).toBe(before + 1);
    expect((await consoleCall('GET', '/api/v1/console/admin/feeds', analyst.idToken)).status).toBe(403);
    expect((await consoleCall('POST', '/api/v1/console/admin/feeds/refresh', analyst.idToken)).status).toBe(
      403,
    );
  });
});
