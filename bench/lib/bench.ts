import { relative } from 'node:path';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';
import { DYNAMODB_LOCAL_PACKAGE, DYNAMODB_LOCAL_PACKAGE_VERSION } from '../../local/dynamodb-local';
import { apiKeyService } from '../../shared/services/auth/api-keys';
import { signInToConsole } from '../../test/support/console-sign-in';
import { ASSUMPTIONS, anchorMonthlyCost, PRICE_REGION, PRICES, PRICES_AS_OF } from '../pricing';
import {
  type BundleInfo,
  buildBundle,
  buildBundles,
  buildProbes,
  constructBundling,
  FLOOR_NAME,
  functionNames,
  OFFLINE_DATA_FUNCTION,
} from '../scenarios/bundles';
import { CLI_START_TARGET_MS, type CliStartResult, runCliStart } from '../scenarios/cli';
import {
  type ColdStartEntry,
  type ColdStartResult,
  runColdStart,
  type VariantInput,
} from '../scenarios/cold-start';
import {
  CONSOLE_FIRST_LOAD_TARGET_BYTES,
  type ConsoleSizeResult,
  runConsoleSize,
} from '../scenarios/console';
import type { ScenarioContext } from '../scenarios/context';
import { type CostMeasurements, runCostMeasurements } from '../scenarios/cost';
import {
  type InvestigationsResult,
  runIntelInvestigations,
  runInvestigations,
} from '../scenarios/investigations';
import { type McpLatencyResult, mcpCostTarget, mcpLatencyTarget, runMcpLatency } from '../scenarios/mcp';
import { POLL_HISTORY_ITEMS, type PollingResult, runPolling, seedPolledSession } from '../scenarios/polling';
import { runScale, type ScaleResult } from '../scenarios/scale';
import { runSoar, type SoarResult, soarTargets } from '../scenarios/soar';
import { withoutOfflineReader } from '../scenarios/what-if';
import { type CostLine, priceAll } from './cost-model';
import type { handlerProbe } from './handler-timing';
import { type BenchService, startBenchService } from './harness';
import { describeMachine, type MachineDescription } from './machine';
import { say } from './output';
import { BENCH_SCENARIOS } from './scenario-names';
import { BUNDLE_SIZE_EXCEPTIONS, SKILL_COST_EXCEPTIONS, TARGETS } from './targets';

/**
 * Functions measured in a quick run: the request path of every plugin skill and the poll, and the
 * run-tool step (the one function carrying the offline enrichment data).
 */
const QUICK_FUNCTIONS = [
  OFFLINE_DATA_FUNCTION,
  'authorizer',
  // Every console request meets it; a quiet tenant's first one meets it cold.
  'console-authorizer',
  'health',
  'get-session-history',
  'start-investigation',
  'get-investigation-report',
  'query-knowledge-graph',
  'list-incidents',
  'search-investigations',
  // The MCP endpoint (issue #37): the five skills over one function.
  'mcp',
];
/** The hot path measured again as debugLogging deploys it (linked source map + --enable-source-maps). */
const SOURCE_MAP_FUNCTIONS = ['authorizer', 'get-session-history'];

export interface TargetResult {
  id: string;
  description: string;
  target: string;
  measured: string;
  met: boolean;
  note?: string;
}

export interface BenchResults {
  meta: {
    mode: 'quick' | 'full';
    scenarios: string[];
    startedAt: string;
    durationSeconds: number;
    commit: string;
    machine: MachineDescription;
    dynamodb: string;
  };
  bundles?: Array<
    Omit<BundleInfo, 'outfile' | 'packages'> & { outfile: string; topPackages: BundleInfo['packages'] }
  >;
  coldStart?: ColdStartResult;
  polling?: PollingResult;
  mcp?: McpLatencyResult;
  investigations?: InvestigationsResult;
  cost?: {
    pricesAsOf: string;
    region: string;
    prices: typeof PRICES;
    assumptions: typeof ASSUMPTIONS;
    anchorMonthlyUsd: number;
    anchor: string;
    lines: CostLine[];
    measurements: CostMeasurements;
    /** `npm run cost:idle` on the default tenant stack, in the same run. */
    idle: { monthlyUsd: number; withoutDashboardUsd: number };
  };
  scale?: ScaleResult;
  console?: ConsoleSizeResult;
  cli?: CliStartResult;
  soar?: SoarResult;
  targets: TargetResult[];
}

export interface BenchOptions {
  quick: boolean;
  selected: readonly string[];
  dynamodbEndpoint: string;
  probe: ReturnType<typeof handlerProbe>;
  commit: string;
  elapsedSeconds: () => number;
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** An analyst's ID token from the bench service's local issuer, signed in as a browser would. */
async function consoleIdToken(bench: BenchService): Promise<string> {
  const analyst = bench.service.console.users.find((user) => user.username === 'analyst');
  if (!analyst) throw new Error('the local issuer has no analyst user');
  const { idToken } = await signInToConsole(bench.service.baseUrl, analyst);
  return idToken;
}

export async function runBench(options: BenchOptions): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  const ctx: ScenarioContext = {
    quick: options.quick,
    dynamodbEndpoint: options.dynamodbEndpoint,
    say: (message) => say(`[${options.elapsedSeconds().toFixed(0).padStart(3)} s] ${message}`),
  };
  const wants = (name: string) => options.selected.includes(name);
  const results: BenchResults = {
    meta: {
      mode: options.quick ? 'quick' : 'full',
      scenarios: [...options.selected],
      startedAt,
      durationSeconds: 0,
      commit: options.commit,
      machine,
      dynamodb: `DynamoDB Local from ${DYNAMODB_LOCAL_PACKAGE}@${DYNAMODB_LOCAL_PACKAGE_VERSION}, in memory, the runtime's JVM flags`,
    },
    targets: [],
  };

  let bundles: BundleInfo[] = [];
  if (wants('bundles') || wants('cold-start')) {
    const names = options.quick ? QUICK_FUNCTIONS : functionNames();
    ctx.say(`building ${names.length + 1} bundles like the CDK construct`);
    bundles = await buildBundles(names);
    bundles.push(...(await buildProbes(constructBundling().banner, options.quick)));
    results.bundles = bundles.map(({ outfile, packages, ...rest }) => ({
      ...rest,
      outfile: relative(PROJECT_ROOT, outfile),
      topPackages: packages.slice(0, 8),
    }));
  }

  if (wants('cold-start') || wants('polling') || wants('mcp') || wants('investigations')) {
    const bench = await startBenchService({ dynamodbEndpoint: options.dynamodbEndpoint, name: 'main' });
    try {
      ctx.say(`seeding a completed session with ${POLL_HISTORY_ITEMS} history items`);
      const target = await seedPolledSession(bench, POLL_HISTORY_ITEMS);
      if (wants('cold-start')) {
        const spare = (name: string) => apiKeyService().create({ name, scopes: ['incidents:read'] }, 'bench');
        const [toRotate, toDisable] = [await spare('bench rotate'), await spare('bench disable')];
        const { banner } = constructBundling();
        const variants: VariantInput[] = [];
        if (!options.quick) {
          for (const name of SOURCE_MAP_FUNCTIONS) {
            variants.push({
              id: 'debug-source-maps',
              description: 'with debugLogging: linked source map, NODE_OPTIONS=--enable-source-maps',
              base: name,
              bundle: await buildBundle(name, banner, { linkedSourceMap: true }),
              nodeOptions: ['--enable-source-maps'],
            });
          }
        }
        const runToolBefore = bundles.some((b) => b.name === OFFLINE_DATA_FUNCTION)
          ? await buildBundle(OFFLINE_DATA_FUNCTION, banner, {
              plugins: [withoutOfflineReader],
              variant: 'without-offline-data',
            })
          : undefined;
        ctx.say('cold starts in fresh Node processes');
        results.coldStart = await runColdStart(
          ctx,
          bundles,
          bench.service.env,
          {
            sessionId: target.sessionId,
            graphValue: '198.51.100.23',
            clientKeyId: bench.keyId,
            clientApiKey: bench.apiKey,
            adminKeyId: bench.adminKeyId,
            rotateKeyId: toRotate.summary.key_id,
            disableKeyId: toDisable.summary.key_id,
            consoleIdToken: await consoleIdToken(bench),
          },
          variants,
          runToolBefore,
        );
      }
      if (wants('polling')) {
        ctx.say('polling through the gateway vs the same DynamoDB requests');
        results.polling = await runPolling(ctx, bench, target);
      }
      if (wants('mcp')) {
        ctx.say('MCP tools/list and get_investigation vs the REST poll');
        results.mcp = await runMcpLatency(ctx, bench, target);
      }
      if (wants('investigations')) {
        ctx.say('investigations');
        results.investigations = await runInvestigations(ctx, bench);
        ctx.say('investigations with threat-intelligence connectors (local fake providers)');
        results.investigations.intel = await runIntelInvestigations(ctx, bench);
      }
    } finally {
      await bench.stop();
    }
  }

  if (wants('cost')) {
    ctx.say('metering request units, Lambda time and transitions per operation');
    const measurements = await runCostMeasurements(ctx);
    results.cost = {
      pricesAsOf: PRICES_AS_OF,
      region: PRICE_REGION,
      prices: PRICES,
      assumptions: ASSUMPTIONS,
      anchorMonthlyUsd: anchorMonthlyCost(),
      anchor: `t4g.small on demand + ${ASSUMPTIONS.anchorEbsGb} GB gp3, always on`,
      lines: priceAll(measurements.operations),
      measurements,
      idle: await idleCost(),
    };
  }

  if (wants('scale')) {
    ctx.say('knowledge routes at scale');
    const bench = await startBenchService({ dynamodbEndpoint: options.dynamodbEndpoint, name: 'scale' });
    try {
      results.scale = await runScale(ctx, bench);
    } finally {
      await bench.stop();
    }
  }
  if (wants('console')) {
    ctx.say('web console download size');
    results.console = await runConsoleSize();
  }
  if (wants('cli')) {
    ctx.say('sis CLI start-up');
    results.cli = runCliStart(options.quick);
  }

  if (wants('soar')) results.soar = await runSoar(ctx);
  results.meta.durationSeconds = options.elapsedSeconds();
  results.targets = evaluateTargets(results);
  return results;
}

/** Loaded only when the cost scenario runs: it synthesises the CDK app. */
async function idleCost(): Promise<{ monthlyUsd: number; withoutDashboardUsd: number }> {
  const { synthesizeTemplate } = await import('../../scripts/idle-cost');
  const { idleCostReport } = await import('../../scripts/cost/idle-resources');
  const { withoutDashboard } = await import('../../scripts/cost/cost-section');
  const report = idleCostReport(synthesizeTemplate({}));
  return { monthlyUsd: report.totalMonthlyUsd, withoutDashboardUsd: withoutDashboard(report) };
}

/**
 * The floor is bundled like every function, so it shrank with them when Lambda bundles took their
 * credentials from the environment alone. The verdict stays against that floor; this note adds the
 * same functions against the floor as it was bundled before (the SDK's whole credential chain, a
 * probe in the same rounds), as a ratio of medians, so the absolute change stays visible.
 */
function stockFloorNote(
  entries: readonly ColdStartEntry[],
  path: readonly ColdStartEntry[],
): { note: string } | Record<string, never> {
  const stock = entries.find((e) => e.name === `${FLOOR_NAME}+sdk-default-credential-chain`);
  if (!stock || path.length === 0) return {};
  const ratios = path.map((e) => e.importCpuMs.median / stock.importCpuMs.median);
  return {
    note: `against the floor bundled with the SDK's default credential chain (${Math.round(stock.importCpuMs.median)} ms CPU, the floor before 2026-11-26): ${fixed(Math.min(...ratios))}–${fixed(Math.max(...ratios))}× (ratio of medians)`,
  };
}

export function evaluateTargets(results: BenchResults): TargetResult[] {
  const targets: TargetResult[] = [];
  const cold = results.coldStart;
  if (cold) {
    const path = cold.entries.filter((e) => e.kind === 'http' || e.kind === 'authorizer');
    // CPU time decides: on this shared machine wall time also measures waiting for a core.
    const over = path.filter((e) => e.importCpuRatio.median > TARGETS.coldImportRatio);
    const worst = [...path].sort((a, b) => b.importCpuRatio.median - a.importCpuRatio.median)[0];
    targets.push({
      id: 'cold-import',
      description: `Cold import of every HTTP function (and the authorizer) ≤ ${TARGETS.coldImportRatio}× the floor bundle's (CPU time)`,
      target: `≤ ${TARGETS.coldImportRatio}×`,
      measured: `${path.length - over.length}/${path.length} within; worst ${worst?.name} ${fixed(worst?.importCpuRatio.median ?? Number.NaN)}× CPU (${fixed(worst?.importRatio.median ?? Number.NaN)}× wall)`,
      met: over.length === 0,
      ...stockFloorNote(cold.entries, path),
    });
  }
  const bundles = results.bundles?.filter((b) => b.kind !== 'floor' && b.kind !== 'probe');
  if (bundles?.length) {
    const limit = TARGETS.bundleBytes;
    const over = bundles.filter((b) => b.bytes > limit && !(b.name in BUNDLE_SIZE_EXCEPTIONS));
    const largest = [...bundles].sort((a, b) => b.bytes - a.bytes)[0]!;
    const excepted = Object.keys(BUNDLE_SIZE_EXCEPTIONS).filter((name) =>
      bundles.some((b) => b.name === name),
    );
    targets.push({
      id: 'bundle-size',
      description: `Every function bundle ≤ ${limit / 1024} KB minified unless its own data needs more`,
      target: `≤ ${limit / 1024} KB`,
      measured: `${bundles.length - over.length}/${bundles.length} within; largest ${largest.name} ${Math.round(largest.bytes / 1024)} KB${over.length ? `; over: ${over.map((b) => `${b.name} ${Math.round(b.bytes / 1024)} KB`).join(', ')}` : ''}`,
      met: over.length === 0,
      ...(excepted.length
        ? { note: excepted.map((name) => `${name}: ${BUNDLE_SIZE_EXCEPTIONS[name]}`).join('; ') }
        : {}),
    });
  }
  const runTool = cold?.runTool;
  if (runTool) {
    const others = runTool.readerIn.filter((name) => name !== runTool.function);
    targets.push({
      id: 'offline-data-one-function',
      description: `The offline enrichment data grows no cold start but \`${runTool.function}\`'s: no other bundle carries its reader`,
      target: `${runTool.function} only`,
      measured: `${others.length === 0 ? 'none' : others.join(', ')} of ${runTool.bundlesChecked - 1} other bundles; ${runTool.function}: import + first IP lookup ${fixed(runTool.coldCpuRatio.median)}× the CPU time of the same function without the data (first call ${runTool.callCpuDeltaMs.median >= 0 ? '+' : ''}${fixed(runTool.callCpuDeltaMs.median, 0)} ms CPU)`,
      met: others.length === 0 && runTool.readerIn.includes(runTool.function),
    });
  }
  if (results.mcp) targets.push(mcpLatencyTarget(results.mcp));
  const poll = results.polling;
  if (poll) {
    const ratio = poll.full.ratioP50.median;
    targets.push({
      id: 'poll-overhead',
      description: `Public poll through the gateway (50 history items) ≤ ${TARGETS.pollOverheadRatio}× its DynamoDB floor, p50`,
      target: `≤ ${TARGETS.pollOverheadRatio}×`,
      measured: `${fixed(ratio)}× (p50 ${fixed(poll.full.service.p50.median)} ms vs ${fixed(poll.full.floor.p50.median)} ms); throughput ${fixed(poll.throughput.ratio.median)}× fewer req/s`,
      met: ratio <= TARGETS.pollOverheadRatio,
    });
    const ratioP99 = poll.full.ratioP99.median;
    targets.push({
      id: 'poll-overhead-p99',
      description: `Public poll through the gateway (50 history items) ≤ ${TARGETS.pollOverheadRatio}× its DynamoDB floor, p99`,
      target: `≤ ${TARGETS.pollOverheadRatio}×`,
      measured: `${fixed(ratioP99)}× (p99 ${fixed(poll.full.service.p99.median)} ms vs ${fixed(poll.full.floor.p99.median)} ms)`,
      met: ratioP99 <= TARGETS.pollOverheadRatio,
    });
  }
  const lines = results.cost?.lines;
  if (lines) {
    for (const id of ['poll-full', 'poll-incremental'] as const) {
      const line = lines.find((l) => l.id === id);
      if (!line) continue;
      const units = line.use.readUnits + line.use.writeUnits;
      const limit = id === 'poll-full' ? TARGETS.fullPollRequestUnits : TARGETS.incrementalPollRequestUnits;
      targets.push({
        id: `${id}-units`,
        description: `DynamoDB request units per ${id === 'poll-full' ? 'full' : 'incremental'} poll (authorizer's key read included) ≤ ${limit}`,
        target: `≤ ${limit}`,
        measured: `${fixed(units, 1)} units in ${fixed(line.use.dynamoRequests, 1)} requests`,
        met: units <= limit,
      });
    }
    const investigation = lines.find((l) => l.id === 'investigate-background');
    if (investigation) {
      const { writeUnits, logBytes } = investigation.use;
      targets.push({
        id: 'investigation-write-units',
        description: `DynamoDB write units per investigation (start and workflow run, rules analyst, no connectors) ≤ ${TARGETS.investigationWriteUnits}`,
        target: `≤ ${TARGETS.investigationWriteUnits}`,
        measured: `${fixed(writeUnits, 1)} write units`,
        met: writeUnits <= TARGETS.investigationWriteUnits,
      });
      targets.push({
        id: 'investigation-log-bytes',
        description: `Log bytes per investigation (handlers, platform, access and workflow logs) ≤ ${TARGETS.investigationLogBytes / 1024} KB`,
        target: `≤ ${TARGETS.investigationLogBytes / 1024} KB`,
        measured: `${fixed(logBytes / 1024, 1)} KB`,
        met: logBytes <= TARGETS.investigationLogBytes,
      });
    }
    // A read skill runs no workflow: neither Standard transitions nor an Express execution (the
    // investigate skill, priced by its run, has its own target above).
    const readSkills = lines.filter(
      (l) => l.skill && l.use.stateTransitions === 0 && l.use.expressRuns === 0,
    );
    if (readSkills.length) {
      const boundOf = (skill: string) =>
        SKILL_COST_EXCEPTIONS[skill]?.perMillionUsd ?? TARGETS.skillPerMillionUsd;
      const over = readSkills.filter((l) => l.perMillion.total > boundOf(l.skill!));
      const worst = [...readSkills].sort((a, b) => b.perMillion.total - a.perMillion.total)[0]!;
      const excepted = readSkills.filter((l) => l.skill! in SKILL_COST_EXCEPTIONS);
      targets.push({
        id: 'skill-cost',
        description: `Per 1M calls of each read skill (${readSkills.map((l) => l.skill).join(', ')}) ≤ $${TARGETS.skillPerMillionUsd}${excepted.length ? ` (${excepted.map((l) => `${l.skill} ≤ $${boundOf(l.skill!)}`).join(', ')}: see the note)` : ''}`,
        target: `≤ $${TARGETS.skillPerMillionUsd}`,
        measured: `${readSkills.length - over.length}/${readSkills.length} within; worst ${worst.skill} $${fixed(worst.perMillion.total)}`,
        met: over.length === 0,
        ...(excepted.length
          ? { note: excepted.map((l) => `${l.skill}: ${SKILL_COST_EXCEPTIONS[l.skill!]!.why}`).join('; ') }
          : {}),
      });
    }
    targets.push(mcpCostTarget(lines));
    const idle = results.cost?.idle;
    if (idle) {
      targets.push({
        id: 'idle-cost',
        description: `Idle cost per tenant per month, default settings, the dashboard not counted ≤ $${TARGETS.idleMonthlyUsd.toFixed(2)}`,
        target: `≤ $${TARGETS.idleMonthlyUsd.toFixed(2)}`,
        measured: `$${fixed(idle.withoutDashboardUsd)} ($${fixed(idle.monthlyUsd)} with the dashboard)`,
        met: idle.withoutDashboardUsd <= TARGETS.idleMonthlyUsd,
      });
    }
    const fullPoll = lines.find((l) => l.id === 'poll-full');
    if (fullPoll) {
      targets.push({
        id: 'poll-full-cost',
        description: `Per 1M full polls (50 history items) ≤ $${TARGETS.fullPollPerMillionUsd}`,
        target: `≤ $${TARGETS.fullPollPerMillionUsd}`,
        measured: `$${fixed(fullPoll.perMillion.total)}`,
        met: fullPoll.perMillion.total <= TARGETS.fullPollPerMillionUsd,
      });
    }
  }
  const scale = results.scale;
  if (scale) {
    for (const rows of [scale.graph, scale.incidents, scale.search]) {
      for (const query of [...new Set(rows.map((r) => r.query))]) {
        const series = rows.filter((r) => r.query === query);
        const first = series[0]!;
        const last = series.at(-1)!;
        const unitsFlat =
          last.readUnits <= first.readUnits * 1.01 && last.dynamoRequests <= first.dynamoRequests;
        targets.push({
          id: `scale:${query}`,
          description: `${query}: a page costs the same at ${last.size.toLocaleString('en-US')} as at ${first.size.toLocaleString('en-US')}`,
          target: `p50 growth ≤ ${TARGETS.scaleGrowth}× (drift-normalised), same read units`,
          measured: `p50 ${fixed(first.latencyMs.p50)} → ${fixed(last.latencyMs.p50)} ms (${fixed(last.growth)}×, ${fixed(last.normalisedGrowth)}× against the reference); read units ${first.readUnits} → ${last.readUnits}`,
          met: last.normalisedGrowth <= TARGETS.scaleGrowth && unitsFlat,
        });
      }
    }
  }
  const web = results.console;
  if (web) {
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const graph = web.lazy.find((f) => f.holds === 'cytoscape');
    targets.push({
      id: 'console-first-load',
      description: `Web console first load (entry script, styles, static chunks) ≤ ${kb(CONSOLE_FIRST_LOAD_TARGET_BYTES)} gzipped, the graph chunk excluded`,
      target: `≤ ${kb(CONSOLE_FIRST_LOAD_TARGET_BYTES)}`,
      measured: `${kb(web.firstLoadGzipBytes)} in ${web.firstLoad.length} files${graph ? `; graph chunk on demand ${kb(graph.gzipBytes)}` : ''}`,
      met: web.firstLoadGzipBytes <= CONSOLE_FIRST_LOAD_TARGET_BYTES,
    });
  }
  const cli = results.cli;
  if (cli) {
    targets.push({
      id: 'cli-start',
      description: `\`sis --version\` (the compiled CLI) answers within ${CLI_START_TARGET_MS} ms (median of ${cli.rounds})`,
      target: `≤ ${CLI_START_TARGET_MS} ms`,
      measured: `${fixed(cli.sisMs.median, 0)} ms (best ${fixed(cli.sisMs.min, 0)} ms); ${fixed(cli.ratio)}× a bare node start in the same rounds (${fixed(cli.floorMs.median, 0)} ms)`,
      met: cli.sisMs.median <= CLI_START_TARGET_MS,
    });
  }
  const limit = results.meta.mode === 'quick' ? TARGETS.quickSeconds : TARGETS.fullSeconds;
  if (results.meta.scenarios.length === BENCH_SCENARIOS.length) {
    targets.push({
      id: 'runtime',
      description: `${results.meta.mode === 'quick' ? 'npm run bench -- --quick' : 'npm run bench'} finishes within ${limit / 60} min`,
      target: `≤ ${limit} s`,
      measured: `${fixed(results.meta.durationSeconds, 0)} s (DynamoDB Local already installed)`,
      met: results.meta.durationSeconds <= limit,
    });
  }
  if (results.soar) targets.push(...soarTargets(results.soar));
  return targets;
}
