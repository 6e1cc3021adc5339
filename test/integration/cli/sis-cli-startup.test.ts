import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_VERSION } from '../../../shared/version';
import { REPO } from '../../support/sis-cli';

/**
 * The project's `sis` runs compiled JavaScript (bin/dist, built by `npm run build:sis` on npm install):
 * no TypeScript compiled on the way (how fast it answers is measured in `npm run bench`, scenario
 * `cli`, not here: a busy machine would make a timed assertion flaky). An edited source makes the compiled
 * copy stale, and bin/sis.mjs then runs the sources through tsx rather than stale code.
 */

// Reports every TypeScript module Node resolves, so a test sees whether tsx compiled anything.
const REPORT_TS = `data:text/javascript,${encodeURIComponent(
  "import { registerHooks } from 'node:module'; registerHooks({ resolve(s, c, next) { const r = next(s, c); if (r.url.endsWith('.ts')) process.stderr.write('loaded-ts ' + r.url + '\\n'); return r; } });",
)}`;

function sisVersion(): { stdout: string; stderr: string; status: number | null } {
  const run = spawnSync(
    process.execPath,
    ['--import', REPORT_TS, join(REPO, 'bin', 'sis.mjs'), '--version'],
    {
      cwd: REPO,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    },
  );
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-sis.mjs')], {
    cwd: REPO,
    encoding: 'utf8',
  });
  expect(build.status, build.stderr).toBe(0);
});

describe('sis --version', () => {
  it('runs the compiled CLI and compiles no TypeScript', () => {
    const runs = Array.from({ length: 2 }, sisVersion);
    for (const run of runs) {
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(SERVICE_VERSION);
      expect(run.stderr).not.toContain('loaded-ts');
    }
  });

  it('falls back to the sources when one of them changed after the build', () => {
    const { inputs } = JSON.parse(readFileSync(join(REPO, 'bin', 'dist', 'inputs.json'), 'utf8')) as {
      inputs: string[];
    };
    expect(inputs).toEqual(expect.arrayContaining(['bin/sis.ts', 'packages/cli/src/program.ts']));
    const source = join(REPO, 'bin', 'cli', 'errors.ts');
    const before = statSync(source);
    const later = new Date(Date.now() + 1000);
    utimesSync(source, later, later);
    try {
      const run = sisVersion();
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(SERVICE_VERSION);
      expect(run.stderr).toContain('loaded-ts');
    } finally {
      utimesSync(source, before.atime, before.mtime);
    }
    expect(sisVersion().stderr).not.toContain('loaded-ts');
  });
});
