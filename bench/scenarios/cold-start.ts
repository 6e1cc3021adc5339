import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';
import { authorizerEvent, httpEvent, type SampleData } from '../lib/events';
import { packageOf, sourceLookup } from '../lib/sourcemap';
import { type Figure, figure } from '../lib/stats';
import { BUNDLE_DIR, type BundleInfo, FLOOR_NAME } from './bundles';
import type { ScenarioContext } from './context';

/**
 * Cold start of every bundle in a fresh Node 24 process: the import, then the first handler call
 * against DynamoDB Local (for functions with an HTTP or authorizer event), against the floor bundle
 * measured in the same rounds. Bundles run one at a time, in a rotating order per round. A separate
 * coverage run per bundle records which packages' functions executed during the import and during
 * the call, to name dependencies a function carries but never calls.
 */
export const IMPORT_RATIO_TARGET = 1.3;

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

function eventFor(name: string, data: SampleData): unknown {
  if (name === FLOOR_NAME || name.startsWith(`${FLOOR_NAME}+`)) return {};
  if (name === 'authorizer') return authorizerEvent(data);
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
): Promise<ColdStartResult> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24)
    throw new Error(`cold starts must run on Node 24 (Lambda's runtime); this is ${process.version}`);
  const rounds = ctx.quick ? 3 : 5;
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ...serviceEnv,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    POWERTOOLS_SERVICE_NAME: 'security-investigation-service',
    POWERTOOLS_METRICS_NAMESPACE: 'SecurityInvestigationService',
  };
  const envFor = (name: string) => ({ ...baseEnv, AWS_LAMBDA_FUNCTION_NAME: name });
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
  return { rounds, node: process.version, entries, variants: variantResults };
}
