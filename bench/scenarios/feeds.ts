import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';
import { parseConfig } from '../../shared/config';
import type { InvestigationData } from '../../shared/domain/core/vocabulary';
import { loadFeedSet } from '../../shared/domain/feeds/compiled-set';
import { FEED_NAMES, type FeedName } from '../../shared/domain/feeds/declarations';
import type { FeedState } from '../../shared/domain/feeds/status';
import { runToolByName } from '../../shared/domain/investigation';
import { FeedRefresher } from '../../shared/services/feeds/feed-refresh';
import { FeedSets } from '../../shared/services/feeds/feed-sets';
import { feedSettings } from '../../shared/services/feeds/feed-settings';
import { DirectoryFeedObjects, storedObjectKey } from '../../shared/store/feeds/feed-objects';
import type { FeedStateRepository } from '../../shared/store/feeds/feed-state-repository';

/**
 * `npm run bench:feeds` — the public feeds' targets (issue #26) on this machine:
 *  - refresh of a 1 M-line feed (Tranco's zipped `rank,domain` CSV and a 1 M-address list) over a
 *    loopback HTTP server: download, parse, compile, store (target ≤ 60 s);
 *  - cold load of a compiled set of 1 M indicators: read, gunzip, decode (target ≤ 300 ms);
 *  - the `feeds` tool warm, every feed loaded (two 1 M sets and seven small ones): p50/p99 per
 *    call for an IP and a domain (target ≤ 5 ms p50);
 *  - the heap the loaded sets take (the run-tool step's memory).
 * The feed states are kept in memory here (the store's DynamoDB item is one small Put per refresh,
 * measured by the integration tests); the sets go to a temporary directory as locally.
 * Writes bench/results/feeds.{json,md}. Loopback only.
 */
const N = Number(process.argv.find((a) => a.startsWith('--lines='))?.slice(8) ?? 1_000_000);

function memoryStates(): FeedStateRepository {
  const states = new Map<FeedName, FeedState>();
  return {
    all: async () => Object.fromEntries(FEED_NAMES.map((n) => [n, states.get(n) ?? { name: n }])),
    save: async (state: FeedState) => {
      const replaced = states.get(state.name);
      states.set(state.name, state);
      return { written: true, replaced };
    },
  } as unknown as FeedStateRepository;
}

function trancoZip(lines: number): Uint8Array {
  const rows: string[] = [];
  for (let i = 1; i <= lines; i++) rows.push(`${i},site-${i.toString(36)}.example${i % 7}.com`);
  rows[0] = '1,google.com';
  return zipSync({ 'top-1m.csv': new TextEncoder().encode(`${rows.join('\r\n')}\r\n`) });
}

function ipList(lines: number): Uint8Array {
  const rows: string[] = ['# one address a line'];
  for (let i = 0; i < lines; i++) {
    const n = (0x0b000000 + i * 13) >>> 0;
    rows.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
  }
  return new TextEncoder().encode(`${rows.join('\n')}\n`);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const ms = (n: number) => Math.round(n * 100) / 100;

async function main() {
  const bodies: Record<string, Uint8Array> = {
    '/top-1m.csv.zip': trancoZip(N),
    '/ci-badguys.txt': ipList(N),
  };
  const fixtures = join(PROJECT_ROOT, 'test/fixtures/feeds');
  const small: Partial<Record<FeedName, string>> = {
    SPAMHAUS_DROP: 'drop_v4.jsonl',
    FEODO: 'feodo-ipblocklist.json',
    URLHAUS: 'urlhaus-recent.csv',
    THREATFOX: 'threatfox-recent.csv',
    OPENPHISH: 'openphish-feed.txt',
    TOR_EXITS: 'torbulkexitlist',
    ET_COMPROMISED: 'compromised-ips.txt',
  };
  for (const [name, file] of Object.entries(small)) bodies[`/${name}`] = readFileSync(join(fixtures, file));
  const server = createServer((req, res) => {
    const body = bodies[(req.url ?? '').split('?')[0]!];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> = { SIS_FEED_MAX_BYTES: String(512 * 1024 * 1024) };
  for (const name of FEED_NAMES) env[`SIS_FEED_${name}_ENABLED`] = 'true';
  env.SIS_FEED_TRANCO_URL = `${base}/top-1m.csv.zip`;
  env.SIS_FEED_CINS_URL = `${base}/ci-badguys.txt`;
  for (const name of Object.keys(small)) env[`SIS_FEED_${name}_URL`] = `${base}/${name}`;
  env.SIS_INTEL_URLHAUS_API_KEY = 'bench-key-not-secret';
  env.SIS_INTEL_THREATFOX_API_KEY = 'bench-key-not-secret';
  const cfg = parseConfig(env);
  const dir = mkdtempSync(join(tmpdir(), 'sis-bench-feeds-'));
  const objects = new DirectoryFeedObjects(dir);
  const states = memoryStates();
  const refresher = new FeedRefresher({
    states,
    objects,
    settings: feedSettings(cfg),
    cfg,
    keyFor: async () => 'bench-key-not-secret',
  });

  const refresh: Record<string, number> = {};
  const keys: Partial<Record<FeedName, string>> = {};
  for (const name of ['TRANCO', 'CINS'] as FeedName[]) {
    const started = performance.now();
    const out = await refresher.refresh([name], { force: true });
    refresh[name] = ms((performance.now() - started) / 1000);
    if (out[name].outcome !== 'ok') throw new Error(`${name}: ${out[name].error}`);
    keys[name] = storedObjectKey(out[name]);
  }
  const startedSmall = performance.now();
  await refresher.refresh(Object.keys(small) as FeedName[], { force: true });
  const smallSeconds = ms((performance.now() - startedSmall) / 1000);
  server.close();

  // Wall time on a shared machine includes waiting for a core; CPU time is what the load costs.
  const cold: Record<string, { ms: number; cpu_ms: number; bytes: number }> = {};
  for (const name of ['TRANCO', 'CINS'] as FeedName[]) {
    const runs: { wall: number; cpu: number; bytes: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const stored = await objects.get(keys[name]!);
      loadFeedSet(stored!);
      const used = process.cpuUsage(cpu);
      runs.push({
        wall: performance.now() - started,
        cpu: (used.user + used.system) / 1000,
        bytes: stored!.byteLength,
      });
    }
    runs.sort((a, b) => a.wall - b.wall);
    const median = runs[2]!;
    cold[name] = { ms: ms(median.wall), cpu_ms: ms(median.cpu), bytes: median.bytes };
  }

  global.gc?.();
  const inMemory = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const heapBefore = inMemory();
  const sets = new FeedSets({ states, objects, enabled: FEED_NAMES });
  const loadStarted = performance.now();
  const loaded = await sets.load();
  const loadAll = ms(performance.now() - loadStarted);
  global.gc?.();
  const heapMb = Math.round((inMemory() - heapBefore) / 1_048_576);

  const data: InvestigationData = {
    incidentsMentioning: async () => [],
    priorInvestigations: async () => [],
    neighbourhood: async () => [],
    tenantKnowledge: async () => ({ allowlist: [], feedback: [] }),
  };
  const timings: Record<string, { p50: number; p99: number }> = {};
  for (const [label, entity] of [
    ['ip', { type: 'ip', value: '11.0.0.13' }],
    ['domain', { type: 'domain', value: 'mail.google.com' }],
  ] as const) {
    const samples: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const started = performance.now();
      const call = await runToolByName('feeds', entity, { data, feeds: sets });
      samples.push(performance.now() - started);
      if (call.status !== 'succeeded' || call.output!.findings.length === 0)
        throw new Error(`${label}: no match`);
    }
    samples.sort((a, b) => a - b);
    timings[label] = { p50: ms(percentile(samples, 0.5)), p99: ms(percentile(samples, 0.99)) };
  }

  const result = {
    at: new Date().toISOString(),
    lines: N,
    refresh_seconds: { ...refresh, seven_small_feeds: smallSeconds },
    cold_load: cold,
    load_all_feeds_ms: loadAll,
    feeds_loaded: loaded.feeds.length,
    heap_mb_all_sets: heapMb,
    tool_warm_ms: timings,
    targets: {
      refresh_1m_le_60s: Math.max(refresh.TRANCO!, refresh.CINS!) <= 60,
      cold_load_1m_le_300ms: Math.max(cold.TRANCO!.ms, cold.CINS!.ms) <= 300,
      warm_p50_le_5ms: Math.max(timings.ip!.p50, timings.domain!.p50) <= 5,
    },
  };
  const out = join(PROJECT_ROOT, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'feeds.json'), `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    '# Public feeds bench (`npm run bench:feeds`)',
    '',
    `Run ${result.at}, ${N.toLocaleString('en')}-line feeds, loopback HTTP, this machine.`,
    '',
    '| Measure | Value | Target |',
    '| --- | --- | --- |',
    `| Refresh of TRANCO (${N.toLocaleString('en')} names, zipped) | ${refresh.TRANCO} s | ≤ 60 s |`,
    `| Refresh of CINS (${N.toLocaleString('en')} addresses) | ${refresh.CINS} s | ≤ 60 s |`,
    `| Refresh of the seven small feeds (fixtures) | ${smallSeconds} s | |`,
    `| Cold load of the TRANCO set (${Math.round(cold.TRANCO!.bytes / 1024)} KB stored), median of 5: wall / CPU | ${cold.TRANCO!.ms} / ${cold.TRANCO!.cpu_ms} ms | ≤ 300 ms |`,
    `| Cold load of the CINS set (${Math.round(cold.CINS!.bytes / 1024)} KB stored), median of 5: wall / CPU | ${cold.CINS!.ms} / ${cold.CINS!.cpu_ms} ms | ≤ 300 ms |`,
    `| Load of all nine sets (tool step, first call) | ${loadAll} ms | |`,
    `| Memory of all nine sets (heap and buffers) | ${heapMb} MB | within run-tool's memory |`,
    `| feeds tool warm, IP: p50 / p99 | ${timings.ip!.p50} / ${timings.ip!.p99} ms | p50 ≤ 5 ms |`,
    `| feeds tool warm, domain: p50 / p99 | ${timings.domain!.p50} / ${timings.domain!.p99} ms | p50 ≤ 5 ms |`,
    '',
  ].join('\n');
  writeFileSync(join(out, 'feeds.md'), md);
  console.log(md);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
