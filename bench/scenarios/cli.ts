import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/constructs/service-function';

/**
 * How long a user waits for the project's `sis` to answer (`sis --version`: the compiled CLI in
 * bin/dist, nothing else to do), against a bare `node -e ""` started in the same rounds, alternated,
 * so the ratio travels across machines better than the time. A timed assertion used to live in the
 * CLI's integration test, where a busy CI machine made it flaky; the test keeps the part that cannot
 * depend on load (no TypeScript compiled on the way).
 */
export const CLI_START_TARGET_MS = 500;

export interface CliStartResult {
  rounds: number;
  sisMs: { median: number; min: number };
  floorMs: { median: number; min: number };
  ratio: number;
}

function wallMs(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

export function runCliStart(quick: boolean): CliStartResult {
  const rounds = quick ? 5 : 11;
  const sis: number[] = [];
  const floor: number[] = [];
  wallMs([join(PROJECT_ROOT, 'bin', 'sis.mjs'), '--version']); // warms the file cache, not counted
  for (let round = 0; round < rounds; round++) {
    floor.push(wallMs(['-e', '']));
    sis.push(wallMs([join(PROJECT_ROOT, 'bin', 'sis.mjs'), '--version']));
  }
  return {
    rounds,
    sisMs: { median: median(sis), min: Math.min(...sis) },
    floorMs: { median: median(floor), min: Math.min(...floor) },
    ratio: median(sis) / median(floor),
  };
}
