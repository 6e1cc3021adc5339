import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';
import { localDataDir } from '../../shared/platform/offline-intel-build';
import { authorizerEvent, consoleAuthorizerEvent, httpEvent, type SampleData } from '../lib/events';
import { packageOf, sourceLookup } from '../lib/sourcemap';
import { type Figure, figure } from '../lib/stats';
import {
  BUNDLE_DIR,
  type BundleInfo,
  CONSOLE_AUTHORIZER,
  FLOOR_NAME,
  OFFLINE_DATA_FUNCTION,
} from './bundles';
import type { ScenarioContext } from './context';

/**
 * Cold start of every bundle in a fresh Node 24 process: the import, then the first handler call
 * against DynamoDB Local (for functions with an HTTP or authorizer event), against the floor bundle
 * measured in the same rounds. Bundles run one at a time, in a rotating order per round. A separate
 * coverage run per bundle records which packages' functions executed during the import and during
 * the call, to name dependencies a function carries but never calls.
 */
/**
 * Issue #29 restated the target at 1.5×: the shell every HTTP function carries (wrapper, Powertools
 * logger and metrics at module scope, middy, configuration, document client) is 1.40× the floor by
 * itself, so 1.3× left a function's own code no room (docs/performance.md).
 */
export const IMPORT_RATIO_TARGET = 1.5;

export interface ColdStartEntry {
  name: string;
  kind: BundleInfo['kind'];
  importMs: Figure;
  /** First handler call (null for functions measured without an event). */
  callMs: Figure | null;
  /** import + first call. */
  coldMs: Figure;
  /** importMs / the floor's importMs, paired per round. */
  importRatio: Figure;
  /** importMs − the floor's importMs, paired per round. */
  importDeltaMs: Figure;
  /** CPU time (user + system, all threads) of the import: insensitive to waiting for a core. */
  importCpuMs: Figure;
  importCpuRatio: Figure;
  importCpuDeltaMs: Figure;
  callCpuMs: Figure | null;
  coldRatio: Figure;
  outcome: string | number | null;
  /** Packages whose code never ran during the handler call, biggest first. */
  uncalled?: Array<{ name: string; bytes: number; ranAtImport: boolean }>;
  uncalledBytes?: number;
}

export interface ColdStartResult {
  rounds: number;
  node: string;
  entries: ColdStartEntry[];
  /** Variants of one function (deployed source maps, what-if builds) against its plain bundle. */
  variants: VariantResult[];
  /** The run-tool function with and without the offline enrichment data. */
  runTool?: RunToolColdStart;
}

/**
 * The run-tool function's cold start before and after the offline enrichment data. "As shipped" is
 * the function with SIS_OFFLINE_DATA_DIR pointing at the data, called for a public address, so its
 * first call opens the data (the ASN table and the country database) as the first IP lookup of a
 * Lambda sandbox does. "Before" is the same function built with the offline-data module stubbed out
 * (no reader in the bundle, nothing read), called with the same event: the function as it was before
 * the data existed. "No lookup" is the shipped function called for a private address, whose
 * classification needs no data: what a cold start costs when the data is not touched.
 */
export interface RunToolCase {
  id: 'as-shipped' | 'before' | 'no-lookup';
  description: string;
  bytes: number;
  importMs: Figure;
  importCpuMs: Figure;
  callMs: Figure;
  callCpuMs: Figure;
  coldMs: Figure;
  outcome: string | number | null;
}

export interface RunToolColdStart {
  function: string;
  rounds: number;
  /** Bytes of the data directory the function ships (what the first IP lookup reads from). */
  dataBytes: number;
  cases: RunToolCase[];
  /** As shipped ÷ before, paired per round. */
  importCpuRatio: Figure;
  callRatio: Figure;
  coldRatio: Figure;
  /** As shipped − before, paired per round. */
  callDeltaMs: Figure;
  callCpuDeltaMs: Figure;
  /** Import + first call in CPU time (insensitive to waiting for a core): ratio and difference. */
  coldCpuRatio: Figure;
  coldCpuDeltaMs: Figure;
  coldDeltaMs: Figure;
  /** The bundles built in this run that carry the offline-data reader (expected: the function only). */
  readerIn: string[];
  bundlesChecked: number;
}

export interface VariantInput {
  id: string;
  description: string;
  /** The function whose plain bundle is the comparison. */
  base: string;
  bundle: BundleInfo;
  nodeOptions?: string[];
}

export interface VariantResult {
  id: string;
  description: string;
  base: string;
  bytes: number;
  baseBytes: number;
  importCpuMs: Figure;
  baseImportCpuMs: Figure;
  /** variant / plain, paired per round. */
  cpuRatio: Figure;
  importMs: Figure;
  baseImportMs: Figure;
  wallRatio: Figure;
}

interface ChildResult {
  bootMs: number;
  importMs: number;
  importCpuMs: number;
  callMs: number | null;
  callCpuMs: number | null;
  outcome: string | number | null;
  importCoverage?: Array<[number, number]>;
  callCoverage?: Array<[number, number]>;
}

const CHILD = join(PROJECT_ROOT, 'bench', 'child', 'cold-start.mjs');
const WORK = join(BUNDLE_DIR, '..', 'cold-start');

function runChild(
  bundle: string,
  input: { functionName: string; event: unknown },
  env: Record<string, string>,
  options: { coverage?: boolean; nodeOptions?: string[] } = {},
): Promise<ChildResult> {
  mkdirSync(WORK, { recursive: true });
  const id = `${input.functionName}-${process.hrtime.bigint()}`;
  const inputPath = join(WORK, `${id}.in.json`);
  const resultPath = join(WORK, `${id}.out.json`);
  writeFileSync(inputPath, JSON.stringify(input));
  const args = [...(options.nodeOptions ?? []), CHILD, bundle, inputPath, resultPath];
  if (options.coverage) args.push('coverage');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(readFileSync(resultPath, 'utf8')) as ChildResult);
      } catch (error) {
        reject(
          new Error(
            `cold start of ${input.functionName} failed (${(error as Error).message}): ${stderr.slice(-800)}`,
          ),
        );
      }
    });
  });
}

/** The Map iteration's input (infra/workflow/investigation.asl.json, RunTool's ItemSelector). */
export function runToolEvent(address: string) {
  return {
    // No such session: the tool runs and its result is not recorded (the session is not active).
    session_id: 's_bench_cold_start',
    entity: { type: 'ip', value: address },
    tool: 'ip_classification',
    tlp: 'amber',
    refresh_intel: false,
  };
}
export const RUN_TOOL_ADDRESS = '8.8.8.8';
const RUN_TOOL_PRIVATE_ADDRESS = '10.1.2.3';

function eventFor(name: string, data: SampleData): unknown {
  if (name === FLOOR_NAME || name.startsWith(`${FLOOR_NAME}+`)) return {};
  if (name === 'authorizer') return authorizerEvent(data);
  if (name === CONSOLE_AUTHORIZER) {
    const { consoleIdToken } = data;
    return consoleIdToken ? consoleAuthorizerEvent({ ...data, consoleIdToken }) : null;
  }
  if (name === OFFLINE_DATA_FUNCTION) return runToolEvent(RUN_TOOL_ADDRESS);
  return httpEvent(name, data) ?? null;
}

/** Packages (node_modules only) with no function executed during the call phase. */
function uncalledPackages(bundle: BundleInfo, result: ChildResult) {
  const code = readFileSync(bundle.outfile, 'utf8');
  const map = JSON.parse(readFileSync(`${bundle.outfile}.map`, 'utf8')) as {
    sources: string[];
    mappings: string;
  };
  const lookup = sourceLookup(code, map);
  const ran = (ranges: Array<[number, number]> | undefined) => {
    const packages = new Set<string>();
    for (const [start, end] of ranges ?? []) {
      if (start === 0 && end >= code.length - 1) continue; // the module's top level
      const source = lookup.sourceAt(start);
      if (source) packages.add(packageOf(source));
    }
    return packages;
  };
  const atImport = ran(result.importCoverage);
  const atCall = ran(result.callCoverage);
  return bundle.packages
    .filter((p) => !p.name.includes('/') || p.name.startsWith('@'))
    .filter((p) => !['shared', 'functions', 'bench'].includes(p.name.split('/')[0] ?? ''))
    .filter((p) => !atCall.has(p.name))
    .map((p) => ({ name: p.name, bytes: p.bytes, ranAtImport: atImport.has(p.name) }));
}

export async function runColdStart(
  ctx: ScenarioContext,
  bundles: readonly BundleInfo[],
  serviceEnv: Record<string, string>,
  data: SampleData,
  variants: readonly VariantInput[],
  /** The run-tool function built without the offline-data reader (bench/scenarios/what-if.ts). */
  runToolBefore?: BundleInfo,
): Promise<ColdStartResult> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24)
    throw new Error(`cold starts must run on Node 24 (Lambda's runtime); this is ${process.version}`);
  // Nine rounds in a full run: single rounds of an import ratio were seen to swing 0.7-1.9x on two
  // shared cores, and the median of five still moved by about 0.1x from run to run.
  const rounds = ctx.quick ? 3 : 9;
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ...serviceEnv,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    POWERTOOLS_SERVICE_NAME: 'security-investigation-service',
    POWERTOOLS_METRICS_NAMESPACE: 'SecurityInvestigationService',
  };
  // As the stack sets it: only the function that ships the data knows where it is.
  const offlineDir = bundles.some((b) => b.name === OFFLINE_DATA_FUNCTION) ? localDataDir() : undefined;
  const envFor = (name: string) => ({
    ...baseEnv,
    AWS_LAMBDA_FUNCTION_NAME: name,
    ...(name === OFFLINE_DATA_FUNCTION && offlineDir ? { SIS_OFFLINE_DATA_DIR: offlineDir } : {}),
  });
  const samples = new Map<string, ChildResult[]>(bundles.map((b) => [b.name, []]));
  const order = [...bundles];
  for (let round = 0; round < rounds; round++) {
    ctx.say(`  cold starts round ${round + 1}/${rounds} (${order.length} bundles)`);
    // Rotate so no bundle always runs right after the same neighbour.
    const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
    for (const bundle of rotated) {
      const result = await runChild(
        bundle.outfile,
        { functionName: bundle.name, event: eventFor(bundle.name, data) },
        envFor(bundle.name),
      );
      samples.get(bundle.name)!.push(result);
    }
  }
  const floor = samples.get(FLOOR_NAME)!;
  const entries: ColdStartEntry[] = [];
  for (const bundle of bundles) {
    const runs = samples.get(bundle.name)!;
    const cold = runs.map((r) => r.importMs + (r.callMs ?? 0));
    const floorCold = floor.map((r) => r.importMs + (r.callMs ?? 0));
    const entry: ColdStartEntry = {
      name: bundle.name,
      kind: bundle.kind,
      importMs: figure(runs.map((r) => r.importMs)),
      callMs: runs[0]?.callMs === null ? null : figure(runs.map((r) => r.callMs ?? Number.NaN)),
      coldMs: figure(cold),
      importRatio: figure(runs.map((r, i) => r.importMs / floor[i]!.importMs)),
      importDeltaMs: figure(runs.map((r, i) => r.importMs - floor[i]!.importMs)),
      importCpuMs: figure(runs.map((r) => r.importCpuMs)),
      importCpuRatio: figure(runs.map((r, i) => r.importCpuMs / floor[i]!.importCpuMs)),
      importCpuDeltaMs: figure(runs.map((r, i) => r.importCpuMs - floor[i]!.importCpuMs)),
      callCpuMs: runs[0]?.callCpuMs === null ? null : figure(runs.map((r) => r.callCpuMs ?? Number.NaN)),
      coldRatio: figure(cold.map((c, i) => c / floorCold[i]!)),
      outcome: runs.at(-1)?.outcome ?? null,
    };
    if (bundle.kind !== 'floor' && bundle.kind !== 'probe') {
      const covered = await runChild(
        bundle.outfile,
        { functionName: bundle.name, event: eventFor(bundle.name, data) },
        envFor(bundle.name),
        { coverage: true },
      );
      if (covered.callCoverage) {
        const uncalled = uncalledPackages(bundle, covered);
        entry.uncalled = uncalled;
        entry.uncalledBytes = uncalled.reduce((sum, p) => sum + p.bytes, 0);
      }
    }
    entries.push(entry);
  }

  const variantResults: VariantResult[] = [];
  for (const variant of variants) {
    const plain = bundles.find((b) => b.name === variant.base);
    if (!plain) continue;
    ctx.say(`  variant: ${variant.base} ${variant.description}`);
    const withVariant: ChildResult[] = [];
    const without: ChildResult[] = [];
    const input = { functionName: variant.base, event: null };
    // Twice the rounds: a variant is two processes per round, and its ratio is the figure.
    for (let round = 0; round < rounds * 2; round++) {
      const options = variant.nodeOptions ? { nodeOptions: variant.nodeOptions } : {};
      withVariant.push(await runChild(variant.bundle.outfile, input, envFor(variant.base), options));
      without.push(await runChild(plain.outfile, input, envFor(variant.base)));
    }
    variantResults.push({
      id: variant.id,
      description: variant.description,
      base: variant.base,
      bytes: variant.bundle.bytes,
      baseBytes: plain.bytes,
      importCpuMs: figure(withVariant.map((r) => r.importCpuMs)),
      baseImportCpuMs: figure(without.map((r) => r.importCpuMs)),
      cpuRatio: figure(withVariant.map((r, i) => r.importCpuMs / without[i]!.importCpuMs)),
      importMs: figure(withVariant.map((r) => r.importMs)),
      baseImportMs: figure(without.map((r) => r.importMs)),
      wallRatio: figure(withVariant.map((r, i) => r.importMs / without[i]!.importMs)),
    });
  }
  const runToolPlain = bundles.find((b) => b.name === OFFLINE_DATA_FUNCTION);
  const runTool =
    runToolPlain && runToolBefore && offlineDir
      ? await runToolColdStart(
          ctx,
          rounds * 2,
          { plain: runToolPlain, before: runToolBefore, offlineDir },
          envFor,
        )
      : undefined;
  if (runTool) {
    const built = bundles.filter((b) => b.kind !== 'floor' && b.kind !== 'probe');
    runTool.readerIn = built.filter((b) => b.offlineReader).map((b) => b.name);
    runTool.bundlesChecked = built.length;
  }
  return {
    rounds,
    node: process.version,
    entries,
    variants: variantResults,
    ...(runTool ? { runTool } : {}),
  };
}

function directoryBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

async function runToolColdStart(
  ctx: ScenarioContext,
  rounds: number,
  input: { plain: BundleInfo; before: BundleInfo; offlineDir: string },
  envFor: (name: string) => Record<string, string>,
): Promise<RunToolColdStart> {
  const name = input.plain.name;
  const cases = [
    {
      id: 'as-shipped',
      description: `as shipped: ip_classification of ${RUN_TOOL_ADDRESS}, SIS_OFFLINE_DATA_DIR set; the first call reads the data`,
      bundle: input.plain,
      address: RUN_TOOL_ADDRESS,
    },
    {
      id: 'before',
      description: `before the offline data: the same function with the offline-data module stubbed out (no reader, nothing read), same event`,
      bundle: input.before,
      address: RUN_TOOL_ADDRESS,
    },
    {
      id: 'no-lookup',
      description: `as shipped, ip_classification of the private ${RUN_TOOL_PRIVATE_ADDRESS}: a call that needs no data`,
      bundle: input.plain,
      address: RUN_TOOL_PRIVATE_ADDRESS,
    },
  ] as const;
  ctx.say(`  ${name} with and without the offline data (${rounds} rounds of ${cases.length})`);
  const samples = new Map<string, ChildResult[]>(cases.map((c) => [c.id, []]));
  for (let round = 0; round < rounds; round++) {
    const rotated = [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)];
    for (const c of rotated) {
      const result = await runChild(
        c.bundle.outfile,
        { functionName: name, event: runToolEvent(c.address) },
        envFor(name),
      );
      samples.get(c.id)!.push(result);
    }
  }
  const cold = (r: ChildResult) => r.importMs + (r.callMs ?? 0);
  const coldCpu = (r: ChildResult) => r.importCpuMs + (r.callCpuMs ?? 0);
  const shipped = samples.get('as-shipped')!;
  const before = samples.get('before')!;
  return {
    function: name,
    rounds,
    dataBytes: directoryBytes(input.offlineDir),
    cases: cases.map((c) => {
      const runs = samples.get(c.id)!;
      return {
        id: c.id,
        description: c.description,
        bytes: c.bundle.bytes,
        importMs: figure(runs.map((r) => r.importMs)),
        importCpuMs: figure(runs.map((r) => r.importCpuMs)),
        callMs: figure(runs.map((r) => r.callMs ?? Number.NaN)),
        callCpuMs: figure(runs.map((r) => r.callCpuMs ?? Number.NaN)),
        coldMs: figure(runs.map(cold)),
        outcome: runs.at(-1)?.outcome ?? null,
      };
    }),
    importCpuRatio: figure(shipped.map((r, i) => r.importCpuMs / before[i]!.importCpuMs)),
    callRatio: figure(shipped.map((r, i) => (r.callMs ?? Number.NaN) / (before[i]!.callMs ?? Number.NaN))),
    coldRatio: figure(shipped.map((r, i) => cold(r) / cold(before[i]!))),
    callDeltaMs: figure(shipped.map((r, i) => (r.callMs ?? Number.NaN) - (before[i]!.callMs ?? Number.NaN))),
    callCpuDeltaMs: figure(
      shipped.map((r, i) => (r.callCpuMs ?? Number.NaN) - (before[i]!.callCpuMs ?? Number.NaN)),
    ),
    coldDeltaMs: figure(shipped.map((r, i) => cold(r) - cold(before[i]!))),
    coldCpuRatio: figure(shipped.map((r, i) => coldCpu(r) / coldCpu(before[i]!))),
    coldCpuDeltaMs: figure(shipped.map((r, i) => coldCpu(r) - coldCpu(before[i]!))),
    readerIn: [],
    bundlesChecked: 0,
  };
}
