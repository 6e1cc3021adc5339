import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';
import { expectDocumented, REPO, runNodeScript, type SisRun, sis } from '../../support/sis-cli';

/**
 * Blocks whose tests are independent run concurrently (one local service, CI budget).
 *
 * The `sis` CLI package as an analyst gets it: `npm pack` of packages/cli, installed offline into an
 * empty folder and run with the system's Node (20 on this machine) against the local runtime as a
 * real process. JSON outputs are checked against the published OpenAPI document.
 */

const SLOW = 'slow.example.com';
const SLOWER = 'slower.example.com';
const BROKEN = 'engine-fault.example.com';
const UNKNOWN_SESSION = 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF';

let service: TestService;
let work: string;
let installedBin: string;
let analyst: string;
let readOnly: string;
let admin: string;
const generous = { rate_per_second: 1000, burst: 1000 };

/** A Node on PATH outside node_modules (the system's), else this process's. */
function systemNode(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir.includes('node_modules')) continue;
    try {
      if (statSync(join(dir, 'node')).isFile()) return join(dir, 'node');
    } catch {
      // not here
    }
  }
  return process.execPath;
}
const NODE = systemNode();

const env = (key: string | undefined, extra: Record<string, string> = {}) => ({
  SIS_API_URL: service.baseUrl,
  ...(key ? { SIS_API_KEY: key } : {}),
  SIS_CONFIG_DIR: join(work, 'no-config'),
  ...extra,
});
const cli = (args: string[], key: string | undefined, extra: Record<string, string> = {}, input?: string) =>
  runNodeScript(installedBin, args, env(key, extra), { node: NODE, cwd: work, input });

function expectOneLineError(run: SisRun, code: number, pattern: RegExp) {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sis-cli-'));
  const packed = join(work, 'packed');
  const install = join(work, 'install');
  mkdirSync(packed);
  mkdirSync(install);
  execFileSync('npm', ['pack', '--workspace', 'sis-cli', '--pack-destination', packed, '--silent'], {
    cwd: REPO,
    stdio: 'pipe',
  });
  const tarball = readdirSync(packed).find((f) => f.endsWith('.tgz'));
  execFileSync(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(packed, tarball!)],
    {
      cwd: install,
      stdio: 'pipe',
    },
  );
  installedBin = join(install, 'node_modules', 'sis-cli', 'dist', 'sis.mjs');

  service = await startTestService({
    env: {
      SIS_FAULT_INJECTION: [
        `step-run-tool@${SLOW}=delay:1500`,
        `step-run-tool@${SLOWER}=delay:4000`,
        `step-assess@${BROKEN}=throw`,
      ].join(','),
      // Shorter than the slow investigations, so the synchronous start hands over to polling.
      SIS_SYNC_WAIT_SECONDS: '1',
    },
  });
  admin = service.adminKey;
  analyst = (await service.createKey({ name: 'analyst', rate_limit: generous })).apiKey;
  readOnly = (
    await service.createKey({
      name: 'reader',
      scopes: ['investigations:read', 'search:read'],
      rate_limit: generous,
    })
  ).apiKey;
}, 180_000);

afterAll(async () => {
  await service?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds only the bundled CLI, declares no dependencies and runs on the system Node', async () => {
    const manifest = JSON.parse(readFileSync(join(installedBin, '../../package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(readdirSync(join(installedBin, '../../node_modules/..'))).not.toContain('node_modules');
    const version = await runNodeScript(
      '-e',
      ['process.stdout.write(process.versions.node)'],
      {},
      { node: NODE },
    );
    expect(Number(version.stdout.split('.')[0])).toBeGreaterThanOrEqual(20);
    const help = await cli(['--help'], undefined);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/investigate/);
    expect(help.stdout).not.toMatch(/^ {2}admin\b/m);
  });
});

// Each test runs several CLI processes one after another; at a load average of ~24 a minute is tight.
const HEAVY = { timeout: 180_000 };

describe.concurrent('sis investigate', HEAVY, () => {
  it('outlives the server wait bound: 202, then polling with progress, then the report', async () => {
    const run = await cli(['investigate', SLOW, '--progress'], analyst);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Running as s_/);
    expect(run.stderr).toMatch(/started\s+domain_analysis/);
    expect(run.stderr).toMatch(/finished\s+domain_analysis/);
    expect(run.stdout).toMatch(/Investigation s_\S+: completed/);
    expect(run.stdout).toMatch(/Verdict: \w+ +Risk: \d+\/100/);
    expect(run.stdout).toMatch(/^Why: \S/m);
    expect(run.stdout).toMatch(/Findings \(\d+\):/);
    expect(run.stdout).toMatch(/Session: http:\/\/\S+\/sessions\/s_/);
    expect(run.stdout + run.stderr).not.toContain(analyst);
  });

  it('prints the synchronous result document with --json, whichever way the server answered', async () => {
    const run = await cli(['investigate', SLOW, '--type', 'domain', '--persona', 'ciso', '--json'], analyst);
    expect(run.code, run.stderr).toBe(0);
    const body = expectDocumented(run, 'POST', '/api/v1/investigations/start', 200);
    expect(body.status).toBe('completed');
    expect(body.report.persona).toBe('CISO');
  });

  it('returns at once with --no-wait; sessions watch, show and report follow it', async () => {
    const started = await cli(['investigate', SLOW, '--no-wait', '--json'], analyst);
    expect(started.code, started.stderr).toBe(0);
    const accepted = expectDocumented(started, 'POST', '/api/v1/investigations/start', 202);
    const id = accepted.session_id;

    const watched = await cli(['sessions', 'watch', id, '--json'], analyst);
    expect(watched.code, watched.stderr).toBe(0);
    const history = expectDocumented(watched, 'GET', `/api/v1/public/sessions/${id}`, 200);
    expect(history.session.status).toBe('completed');
    const started_ = history.events.filter((e: { type: string }) => e.type === 'tool_started').length;
    expect(started_).toBeGreaterThan(0);
    expect(history.tool_calls).toHaveLength(started_);

    const shown = await cli(['sessions', 'show', id], analyst);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`Session ${id}: completed`));
    expect(shown.stdout).toMatch(/domain_analysis\s+succeeded/);
    expect(shown.stdout).toMatch(/^Started by: analyst \(API key [a-z0-9]+\)$/m);
    expectDocumented(
      await cli(['sessions', 'show', id, '--json'], analyst),
      'GET',
      `/api/v1/public/sessions/${id}`,
      200,
    );

    const report = await cli(['sessions', 'report', id, '--json'], analyst);
    expect(report.code).toBe(0);
    expect(expectDocumented(report, 'GET', `/api/v1/sessions/${id}`, 200).report).not.toBeNull();
    const text = await cli(['sessions', 'report', id], analyst);
    expect(text.stdout).toMatch(/Summary:/);

    const late = await cli(['sessions', 'cancel', id], analyst);
    expectOneLineError(late, 1, /^sis: Refused: /);
  });

  it('cancels a running investigation; watching it then exits 5', async () => {
    const started = JSON.parse((await cli(['investigate', SLOWER, '--no-wait', '--json'], analyst)).stdout);
    const canceled = await cli(['sessions', 'cancel', started.session_id, '--json'], analyst);
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(
      expectDocumented(canceled, 'POST', `/api/v1/public/sessions/${started.session_id}/cancel`, 200),
    ).toEqual({
      session_id: started.session_id,
      status: 'canceled',
    });
    const watched = await cli(['sessions', 'watch', started.session_id], analyst);
    expect(watched.code).toBe(5);
    expect(watched.stdout).toMatch(/canceled/);
  });

  it('exits 5 when the investigation fails, with the reason', async () => {
    const run = await cli(['investigate', BROKEN], analyst);
    expect(run.code, run.stdout + run.stderr).toBe(5);
    expect(run.stdout).toMatch(/: failed/);
    expect(run.stdout).toMatch(/Reason: /);
  });

  it('passes --tlp through to the service and refuses an unknown level itself', async () => {
    const bad = await cli(['investigate', SLOW, '--tlp', 'purple'], analyst);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tlp/);
  });
});

describe.concurrent('errors', HEAVY, () => {
  it('401: unknown key → exit 3', async () => {
    expectOneLineError(
      await cli(['search', 'example'], 'sis_aaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'),
      3,
      /unknown, expired or disabled/,
    );
  });

  it('403: names the missing scope from the operation → exit 3', async () => {
    expectOneLineError(await cli(['investigate', SLOW], readOnly), 3, /lacks the scope investigations:write/);
    expectOneLineError(await cli(['keys', 'list'], readOnly), 3, /needs an admin key/);
  });

  it("403: another key's session → exit 3; unknown session → exit 4", async () => {
    const started = JSON.parse((await cli(['investigate', SLOW, '--no-wait', '--json'], analyst)).stdout);
    expectOneLineError(await cli(['sessions', 'show', started.session_id], readOnly), 3, /does not own/);
    expectOneLineError(await cli(['sessions', 'report', UNKNOWN_SESSION], analyst), 4, /^sis: Not found: /);
  });

  it('429: says how long to wait', async () => {
    // one token, refilled every 100 s: the second call is refused with a Retry-After
    const rate_limit = { rate_per_second: 0.01, burst: 1 };
    const throttled = (await service.createKey({ name: 'throttled', rate_limit })).apiKey;
    expect((await cli(['search', 'example'], throttled)).code).toBe(0);
    expectOneLineError(await cli(['search', 'example'], throttled), 1, /Rate limit reached: wait \d{2,3} s/);
  });

  it('network: names the URL it tried → exit 1', async () => {
    const run = await cli(['search', 'example'], analyst, { SIS_API_URL: 'http://127.0.0.1:9' });
    expectOneLineError(run, 1, /Could not reach the service at http:\/\/127\.0\.0\.1:9\/api\/v1\/search/);
  });

  it('usage: unknown options and missing settings → exit 2', async () => {
    expect((await cli(['graph'], analyst)).code).toBe(2);
    expect((await cli(['search', 'example', '--bogus'], analyst)).code).toBe(2);
    expectOneLineError(await cli(['search', 'example'], undefined, { SIS_API_URL: '' }), 2, /No API URL/);
    expectOneLineError(await cli(['search', 'example'], undefined), 3, /No API key/);
    expectOneLineError(await cli(['keys', 'rotate', 'abcdefghij234567'], admin), 2, /exactly one of --grace/);
  });
});

describe('sis keys', HEAVY, () => {
  it('creates, lists, rotates and disables keys; a secret appears once, on stdout', async () => {
    const created = await cli(
      [
        'keys',
        'create',
        '--name',
        'cli bot',
        // the hidden singular alias of --scopes: scripts written before the one spelling still work
        '--scope',
        'search:read,graph:read',
        '--expires-in-days',
        '7',
        '--json',
      ],
      admin,
    );
    expect(created.code, created.stderr).toBe(0);
    const key = expectDocumented(created, 'POST', '/api/v1/admin/keys', 201);
    expect(key.scopes).toEqual(['search:read', 'graph:read']);
    expect(created.stdout.split(key.api_key)).toHaveLength(2);
    expect(created.stderr).not.toContain(key.api_key);

    const listed = await cli(['keys', 'list', '--search', 'cli bot', '--json'], admin);
    const list = expectDocumented(listed, 'GET', '/api/v1/admin/keys?search=cli%20bot', 200);
    expect(list.keys.map((k: { key_id: string }) => k.key_id)).toContain(key.key_id);
    expect(listed.stdout).not.toContain(key.api_key);
    const table = await cli(['keys', 'list'], admin);
    expect(table.stdout).toMatch(new RegExp(`${key.key_id}\\s+cli bot\\s+client\\s+active`));

    const graced = await cli(['keys', 'rotate', key.key_id, '--grace', '1h', '--json'], admin);
    const rotated = expectDocumented(graced, 'POST', `/api/v1/admin/keys/${key.key_id}/rotate`, 200);
    const graceMs = Date.parse(rotated.grace_period_ends_at) - Date.now();
    expect(graceMs).toBeGreaterThan(3_500_000);
    expect(graceMs).toBeLessThanOrEqual(3_600_000);
    expect((await cli(['search', 'example'], key.api_key)).code).toBe(0);

    const now = await cli(['keys', 'rotate', key.key_id, '--now'], admin);
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toMatch(/no longer works/);
    const newest = now.stdout.trim().split('\n').at(-1)!;
    expectOneLineError(await cli(['search', 'example'], rotated.api_key), 3, /unknown, expired or disabled/);
    expect((await cli(['search', 'example'], newest)).code).toBe(0);

    const disabled = await cli(['keys', 'disable', key.key_id, '--json'], admin);
    expect(expectDocumented(disabled, 'POST', `/api/v1/admin/keys/${key.key_id}/disable`, 200).status).toBe(
      'disabled',
    );
    expectOneLineError(await cli(['search', 'example'], newest), 3, /unknown, expired or disabled/);
  });
});

describe.concurrent('sis incidents, graph and search', HEAVY, () => {
  beforeAll(async () => {
    const writer = (await service.createKey({ name: 'siem', scopes: ['incidents:write'] })).apiKey;
    const now = Date.now();
    const incidents = Array.from({ length: 5 }, (_, i) => ({
      source: 'custom',
      source_id: `cli-${i}`,
      title: `CLI incident ${i}`,
      severity: i % 2 ? 'high' : 'low',
      status: 'new',
      created_at: new Date(now - (i + 1) * 3_600_000).toISOString(),
      entities: [
        { type: 'host', value: 'ws-cli-1' },
        { type: 'ip', value: `198.51.100.${i + 1}` },
      ],
    }));
    const answer = await service.call('POST', '/api/v1/incidents/ingest', {
      key: writer,
      body: { incidents },
    });
    expect(answer.status).toBe(202);
    await service.incidentQueue.idle();
  });

  it('lists incidents, following cursors with --all', async () => {
    const one = await cli(['incidents', 'list', '--limit', '1', '--json'], analyst);
    const page = expectDocumented(one, 'GET', '/api/v1/incidents?limit=1', 200);
    expect(page.incidents).toHaveLength(1);
    expect(page.next_cursor).toEqual(expect.any(String));

    const all = await cli(['incidents', 'list', '--limit', '2', '--all', '--json'], analyst);
    const every = expectDocumented(all, 'GET', '/api/v1/incidents?limit=2', 200);
    expect(every.incidents.map((i: { source_id: string }) => i.source_id)).toEqual([
      'cli-0',
      'cli-1',
      'cli-2',
      'cli-3',
      'cli-4',
    ]);
    expect(every.next_cursor).toBeNull();

    const recent = await cli(['incidents', 'list', '--severity', 'high', '--since', '150m'], analyst);
    expect(recent.code, recent.stderr).toBe(0);
    expect(recent.stdout).toMatch(/CLI incident 1/);
    expect(recent.stdout).not.toMatch(/CLI incident [0234]/);
  });

  it('shows the graph around an entity', async () => {
    const run = await cli(['graph', 'ws-cli-1', '--type', 'host', '--json'], analyst);
    const graph = expectDocumented(run, 'GET', '/api/v1/graph/entity/ws-cli-1?type=host', 200);
    expect(graph.neighbors.map((n: { value: string }) => n.value)).toContain('198.51.100.1');
    const text = await cli(['graph', 'ws-cli-1', '--type', 'host', '--depth', '2'], analyst);
    expect(text.stdout).toMatch(/ip\s+198\.51\.100\.1\s+co_occurs_in_incident/);
  });

  it('searches past investigations', async () => {
    const run = await cli(['search', SLOW, '--json'], analyst);
    const found = expectDocumented(run, 'GET', `/api/v1/search?q=${SLOW}`, 200);
    expect(found.results.length).toBeGreaterThan(0);
    const text = await cli(['search', SLOW, '--status', 'completed'], analyst);
    expect(text.stdout).toMatch(
      new RegExp(`completed\\s+\\w+\\s+\\d+\\s+domain ${SLOW.replace(/\./g, '\\.')}`),
    );
  });
});

describe.concurrent('profiles and keys from stdin', () => {
  it('saves a profile readable by the user only and uses it with --profile', async () => {
    const configDir = join(work, 'config');
    const saved = await cli(
      ['configure', '--profile', 'lab', '--api-url', service.baseUrl, '--api-key-stdin'],
      undefined,
      { SIS_CONFIG_DIR: configDir, SIS_API_URL: '' },
      `${analyst}\n`,
    );
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout + saved.stderr).not.toContain(analyst);
    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.lab).toEqual({
      api_url: service.baseUrl,
      api_key: analyst,
    });

    const used = await cli(['search', SLOW, '--profile', 'lab', '--json'], undefined, {
      SIS_CONFIG_DIR: configDir,
      SIS_API_URL: 'http://127.0.0.1:9',
    });
    expect(used.code, used.stderr).toBe(0);
    const listed = await cli(['configure', '--list'], undefined, { SIS_CONFIG_DIR: configDir });
    expect(listed.stdout).toMatch(/lab\s+http:\/\/127\.0\.0\.1/);
    expect(listed.stdout).not.toContain(analyst);

    const missing = await cli(['search', 'example', '--profile', 'nope'], undefined, {
      SIS_CONFIG_DIR: configDir,
    });
    expectOneLineError(missing, 2, /No profile "nope"/);
  });

  it('reads the key from stdin with --api-key-stdin', async () => {
    const run = await cli(['search', SLOW, '--api-key-stdin'], undefined, {}, `${analyst}\n`);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe("the project's sis", () => {
  it('offers the package commands beside admin bootstrap', async () => {
    const help = await sis(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/admin/);
    expect(help.stdout).toMatch(/investigate/);
    const found = await sis(['search', SLOW, '--json'], env(analyst));
    expect(found.code, found.stderr).toBe(0);
    expectDocumented(found, 'GET', `/api/v1/search?q=${SLOW}`, 200);
  });
});
