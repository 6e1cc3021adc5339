import { execSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { besideBundleCommands, functionEntry, PROJECT_ROOT } from '../../infra/constructs/service-function';
import { STATUS_CHANGE_FUNCTION, WORKFLOW_STEPS } from '../../infra/workflow/definition';
import { ROUTES } from '../../shared/api/routes';
import { LAMBDA_BUNDLE_OPTIONS } from '../../test/support/lambda-bundle';
import { DEPENDENCY_PROBES } from '../floor/dependency-probes';
import { packageOf } from '../lib/sourcemap';

/**
 * Builds every Lambda bundle the way the CDK construct does (infra/constructs/service-function.ts:
 * esbuild, ESM, target node24, minified, AWS SDK bundled, nothing external, the createRequire
 * banner, the construct's aliases, so credentials come from the environment alone) and reports sizes
 * and the biggest contributors from esbuild's metafile. The source map is written to a separate file
 * (`external`), so the measured code is byte for byte the code Lambda would load; the map serves only
 * to attribute executed code to packages (cold-start coverage).
 */
export type FunctionKind = 'http' | 'authorizer' | 'workflow' | 'queue' | 'floor' | 'probe';

export interface BundleInfo {
  name: string;
  kind: FunctionKind;
  /** Plugin skill the function serves, if any. */
  skill?: string;
  outfile: string;
  bytes: number;
  gzipBytes: number;
  buildMs: number;
  /** Bytes in the output per package (node_modules) or project folder, largest first. */
  packages: Array<{ name: string; bytes: number }>;
  /** Whether the bundle carries the offline-data reader (shared/platform/offline-intel.ts, mmdb-lib). */
  offlineReader: boolean;
}

export const FLOOR_NAME = 'floor';
/** The console's REQUEST authorizer (functions/console-authorizer): measured as an authorizer. */
export const CONSOLE_AUTHORIZER = 'console-authorizer';
/** The function the stack ships the offline enrichment data with (ServiceFunction offlineData). */
export const OFFLINE_DATA_FUNCTION = (() => {
  const steps = WORKFLOW_STEPS.filter((step) => step.offlineData);
  if (steps.length !== 1) throw new Error('the bench expects exactly one workflow step with offline data');
  return steps[0]!.functionName;
})();
const OFFLINE_READER_INPUTS = /(?:^|\/)(?:shared\/platform\/offline-intel\.ts|node_modules\/mmdb-lib\/)/;
export const BUNDLE_DIR = join(PROJECT_ROOT, 'bench', 'results', 'tmp', 'bundles');
const CONSTRUCT_FILE = join(PROJECT_ROOT, 'infra', 'constructs', 'service-function.ts');

/**
 * The construct's bundling settings, read from its source so the bench cannot silently drift from
 * it: the banner is taken verbatim, the other settings are checked to be the ones mirrored here.
 */
export function constructBundling(): { banner: string } {
  const source = readFileSync(CONSTRUCT_FILE, 'utf8');
  const banner = /const ESM_REQUIRE_BANNER =\s*"([^"]+)";/.exec(source)?.[1];
  const expected = [
    'format: OutputFormat.ESM',
    "mainFields: ['module', 'main']",
    'banner: ESM_REQUIRE_BANNER',
    'minify: true',
    'bundleAwsSDK: true',
    'externalModules: []',
    'esbuildArgs: esbuildAliasArgs(LAMBDA_BUNDLE_ALIASES)',
    'runtime: Runtime.NODEJS_24_X',
    '...besideBundleCommands(inputDir, outputDir)',
  ];
  const missing = expected.filter((setting) => !source.includes(setting));
  if (!banner || missing.length > 0) {
    throw new Error(
      `infra/constructs/service-function.ts changed its bundling (${missing.join(', ') || 'banner'}); update bench/scenarios/bundles.ts to mirror it.`,
    );
  }
  return { banner };
}

export function functionNames(): string[] {
  return readdirSync(join(PROJECT_ROOT, 'functions'))
    .filter((name) => {
      try {
        return statSync(functionEntry(name)).isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

export function kindOf(name: string): FunctionKind {
  if (name === FLOOR_NAME) return 'floor';
  if (name === 'authorizer' || name === CONSOLE_AUTHORIZER) return 'authorizer';
  if (ROUTES.some((route) => route.functionName === name)) return 'http';
  if (name === STATUS_CHANGE_FUNCTION || WORKFLOW_STEPS.some((step) => step.functionName === name))
    return 'workflow';
  return 'queue';
}

/**
 * `linkedSourceMap` builds the debugLogging variant: the construct then links the source map it ships
 * next to every bundle and sets NODE_OPTIONS=--enable-source-maps, which makes Node read the map at
 * import. By default the map ships unlinked and the bundle is the plain one measured here.
 */
export async function buildBundle(
  name: string,
  banner: string,
  options: {
    linkedSourceMap?: boolean;
    entry?: string;
    /** An entry given as source text (resolved from bench/floor), instead of a file. */
    source?: string;
    kind?: FunctionKind;
    /** What-if variants: esbuild plugins that stub a dependency out, and the folder to build into. */
    plugins?: Plugin[];
    variant?: string;
    /** esbuild aliases instead of the construct's (a probe of the floor as it was without them). */
    aliases?: Readonly<Record<string, string>>;
  } = {},
): Promise<BundleInfo> {
  const entry =
    options.entry ??
    (name === FLOOR_NAME ? join(PROJECT_ROOT, 'bench', 'floor', 'handler.ts') : functionEntry(name));
  const folder = options.variant
    ? `${name}.${options.variant}`
    : options.linkedSourceMap
      ? `${name}.sourcemap`
      : name;
  const outfile = join(BUNDLE_DIR, folder, 'index.mjs');
  const start = performance.now();
  const result = await build({
    // The construct's settings, as the tests that check what a bundle carries use them.
    ...LAMBDA_BUNDLE_OPTIONS,
    ...(options.source
      ? {
          stdin: {
            contents: options.source,
            resolveDir: join(PROJECT_ROOT, 'bench', 'floor'),
            loader: 'ts' as const,
          },
        }
      : { entryPoints: [entry] }),
    outfile,
    banner: { js: banner },
    ...(options.aliases ? { alias: { ...options.aliases } } : {}),
    sourcemap: options.linkedSourceMap ? 'linked' : 'external',
    sourcesContent: false,
    plugins: options.plugins ?? [],
  });
  const buildMs = performance.now() - start;
  // As the construct's afterBundling does for every function: the libraries loaded on first use
  // (the Public Suffix List, ipaddr.js) beside it.
  for (const command of besideBundleCommands(PROJECT_ROOT, dirname(outfile))) execSync(command);
  const output = result.metafile.outputs[relative(PROJECT_ROOT, outfile)];
  if (!output) throw new Error(`esbuild wrote no ${outfile}`);
  const byPackage = new Map<string, number>();
  for (const [path, input] of Object.entries(output.inputs)) {
    const key = packageOf(path);
    byPackage.set(key, (byPackage.get(key) ?? 0) + input.bytesInOutput);
  }
  const code = readFileSync(outfile);
  const route = ROUTES.find((r) => r.functionName === name);
  return {
    name,
    kind: options.kind ?? kindOf(name),
    ...(route?.pluginSkill ? { skill: route.pluginSkill } : {}),
    outfile,
    offlineReader: Object.keys(output.inputs).some((path) => OFFLINE_READER_INPUTS.test(path)),
    bytes: code.length,
    gzipBytes: gzipSync(code).length,
    buildMs,
    packages: [...byPackage]
      .map(([packageName, bytes]) => ({ name: packageName, bytes }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

/** The floor plus one dependency (bench/floor/dependency-probes.ts), built like every function. */
export async function buildProbes(banner: string, quick = false): Promise<BundleInfo[]> {
  const probes: BundleInfo[] = [];
  for (const probe of DEPENDENCY_PROBES.filter((p) => !quick || p.quick)) {
    const source = `export { handler } from './handler';\n${probe.source}\n`;
    probes.push(
      await buildBundle(`floor+${probe.name}`, banner, {
        source,
        kind: 'probe',
        ...(probe.aliases ? { aliases: probe.aliases } : {}),
        ...(probe.standIns ? { aliases: { ...LAMBDA_BUNDLE_OPTIONS.alias, ...probe.standIns } } : {}),
      }),
    );
  }
  return probes;
}

export async function buildBundles(names: readonly string[]): Promise<BundleInfo[]> {
  const { banner } = constructBundling();
  const bundles: BundleInfo[] = [];
  for (const name of [FLOOR_NAME, ...names]) bundles.push(await buildBundle(name, banner));
  return bundles;
}
