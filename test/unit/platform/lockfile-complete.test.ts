import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue #27 item 8: CI installs with `npm ci`, which refuses a lock file that `npm install` would
 * change. The usual gap is a package's platform-specific optional dependencies (Biome's, esbuild's):
 * an install on one platform used to drop the others from the lock, and a fresh clone's `npm
 * install` added them back. Every optional dependency of every locked package must be locked too,
 * and .ci/run must install with `npm ci`.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');

interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
};

/** Where npm would resolve `name` from the package at `path`: its own node_modules, then upwards. */
function resolves(path: string, name: string): boolean {
  let base = path;
  for (;;) {
    if (lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
    if (!base) return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut >= 0 ? base.slice(0, cut) : '';
  }
}

describe('the lock file', () => {
  it('locks every optional dependency of every locked package, whatever the platform', () => {
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(3);
    const missing = Object.entries(lock.packages).flatMap(([path, pkg]) =>
      Object.keys(pkg.optionalDependencies ?? {})
        .filter((name) => !resolves(path, name))
        .map((name) => `${path || '(root)'} → ${name}`),
    );
    expect(missing).toEqual([]);
    // The case that broke `npm ci`: Biome's CLI for every platform it publishes.
    const biome = lock.packages['node_modules/@biomejs/biome'];
    expect(Object.keys(biome?.optionalDependencies ?? {}).length).toBeGreaterThanOrEqual(8);
  });

  it('is what CI installs from, with npm ci', () => {
    const run = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    const commands = run.split('\n').filter((line) => /^\s*npm (ci|install)\b/.test(line));
    expect(commands).toEqual([expect.stringMatching(/^\s*npm ci\b/)]);
  });
});
