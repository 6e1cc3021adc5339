import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { installHandlerTiming } from './lib/handler-timing';
import { captureServiceOutput, say } from './lib/output';
import { BENCH_SCENARIOS as SCENARIOS, type BenchScenario as Scenario } from './lib/scenario-names';

/**
 * `npm run bench` — what users pay for, measured on this machine: bundle sizes and cold starts,
 * the poll, investigations, the knowledge routes at scale, and a cost model from the measured
 * consumption. Every figure is a median of repeated rounds with its spread, and set against a floor
 * measured in the same run (the machine is shared and noisy; ratios travel better than times).
 *
 *   npm run bench                 full run (≤ 10 min): bench/results/latest.{json,md} and charts
 *   npm run bench -- --quick      smaller run (≤ 2 min): bench/results/latest-quick.{json,md}
 *   npm run bench -- --only=polling,scale   some scenarios only (results under bench/results/tmp/)
 *   npm run bench -- --verbose    show the service's log lines
 *
 * Loopback only: DynamoDB Local (in memory), the local runtime and the cold-start processes all run
 * on 127.0.0.1, with bounded counts, and stop at the end.
 */

function parseArgs(argv: string[]) {
  const quick = argv.includes('--quick');
  const verbose = argv.includes('--verbose');
  const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const selected = only ? (only.split(',') as Scenario[]) : [...SCENARIOS];
  const unknown = selected.filter((s) => !SCENARIOS.includes(s));
  if (unknown.length)
    throw new Error(`unknown scenario(s) ${unknown.join(', ')}; choose from ${SCENARIOS.join(', ')}`);
  return { quick, verbose, selected, partial: Boolean(only) };
}

const probe = installHandlerTiming();

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  captureServiceOutput({ verbose: args.verbose });
  // Metrics are EMF log lines on Lambda (shared/observability.ts turns them off outside Lambda); the
  // bench keeps them on, so handlers do that work and the cost model counts those log bytes.
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  // Loaded after the hook is installed, so every handler the runtime imports is timed.
  const { runBench } = await import('./lib/bench');
  const started = performance.now();
  const { PROJECT_ROOT } = await import('../infra/constructs/service-function');
  const resultsDir = join(PROJECT_ROOT, 'bench', 'results');
  const outDir = args.partial ? join(resultsDir, 'tmp') : resultsDir;
  const base = args.partial ? 'partial' : args.quick ? 'latest-quick' : 'latest';
  mkdirSync(outDir, { recursive: true });

  say(`bench: ${args.quick ? 'quick' : 'full'} run of ${args.selected.join(', ')}`);
  const dynamo = await startDynamoDbLocal({});
  try {
    const results = await runBench({
      quick: args.quick,
      selected: args.selected,
      dynamodbEndpoint: dynamo.endpoint,
      probe,
      commit: gitCommit(PROJECT_ROOT),
      elapsedSeconds: () => (performance.now() - started) / 1000,
    });
    const { renderMarkdown } = await import('./lib/report/markdown');
    const { renderCharts } = await import('./lib/report/charts');
    const charts = renderCharts(results);
    // Charts of an earlier run that this one does not draw (latest-quick-* is another base's).
    const ours = (file: string) =>
      file.startsWith(`${base}-`) && !file.slice(base.length + 1).startsWith('quick-');
    for (const stale of readdirSync(outDir).filter((f) => ours(f) && f.endsWith('.svg')))
      rmSync(join(outDir, stale));
    for (const [name, svg] of Object.entries(charts)) writeFileSync(join(outDir, `${base}-${name}.svg`), svg);
    const chartFiles = Object.keys(charts).map((name) => `${base}-${name}.svg`);
    writeFileSync(join(outDir, `${base}.json`), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(outDir, `${base}.md`), renderMarkdown(results, chartFiles));
    say(
      `bench: done in ${results.meta.durationSeconds.toFixed(0)} s; wrote ${relative(PROJECT_ROOT, join(outDir, base))}.{json,md} and ${chartFiles.length} charts`,
    );
    for (const target of results.targets)
      say(
        `  ${target.met ? 'MET ' : 'MISS'} ${target.description}: ${target.measured}${target.note ? `; ${target.note}` : ''}`,
      );
  } finally {
    await dynamo.stop();
    rmSync(join(resultsDir, 'tmp', 'cold-start'), { recursive: true, force: true });
  }
}

function gitCommit(root: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    say(`bench failed: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
