import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, freePort, type StartedProcess, startLocalMain } from '../support/npm-start';
import { REPO } from '../support/sis-cli';

/**
 * The first hour of a new user, as the README tells it: `npm start` (local/main.ts as its own process,
 * its own DynamoDB Local and data directory, the demo tenant), then the README's quick-start block
 * pasted into bash, extracted from README.md so the README cannot drift from what works.
 */

const MARKER = '<!-- quick-start:';

function quickStartBlock(readme: string): string {
  const at = readme.indexOf(MARKER);
  if (at < 0) throw new Error('README.md has no quick-start marker');
  const fence = /```bash\n([\s\S]*?)\n```/.exec(readme.slice(at));
  if (!fence?.[1]) throw new Error('no ```bash block after the quick-start marker');
  return fence[1];
}

function bash(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', script], { cwd: REPO, env: { ...baseEnv(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end();
  });
}

const STACK_TRACE = /\n\s+at |SyntaxError|Unexpected end of JSON/;

let service: StartedProcess;
let dataDir: string;
let env: { PORT: string; SIS_DYNAMODB_PORT: string; SIS_DATA_DIR: string } & Record<string, string>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sis-readme-'));
  env = {
    PORT: String(await freePort()),
    SIS_DYNAMODB_PORT: String(await freePort()),
    SIS_DATA_DIR: dataDir,
    ...(process.env.SIS_OFFLINE_DATA_DIR ? { SIS_OFFLINE_DATA_DIR: process.env.SIS_OFFLINE_DATA_DIR } : {}),
  };
  service = await startLocalMain(env);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the README quick start', () => {
  it('prints the bootstrap command for the ports and data directory in use', () => {
    const banner = service.output().stdout;
    expect(banner).toContain(`listening on http://127.0.0.1:${env.PORT}`);
    expect(banner).toContain(
      `First admin key:   SIS_DYNAMODB_PORT=${env.SIS_DYNAMODB_PORT} SIS_DATA_DIR=${dataDir} npx sis admin bootstrap --json`,
    );
  });

  it('works pasted into bash: one bootstrap, an analyst key, an investigation of the demo IP', async () => {
    const block = quickStartBlock(readFileSync(join(REPO, 'README.md'), 'utf8'));
    expect(block).toContain('http://127.0.0.1:$' + '{PORT:-3000}');
    expect(block.match(/admin bootstrap/g)).toHaveLength(1);

    const first = await bash(block, { PORT: env.PORT, SIS_DYNAMODB_PORT: env.SIS_DYNAMODB_PORT });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Investigation s_\w+( of ip 203\.0\.113\.66)?: completed$/m);
    expect(first.stdout).toContain('IP address 203.0.113.66');
    expect(first.stdout).toMatch(/^Verdict: \w+ {4}Risk: \d+\/100/m);
    expect(first.stderr).not.toMatch(STACK_TRACE);

    // Pasted again: bootstrap refuses (an admin key is active) and the chain stops there, cleanly.
    const again = await bash(block, { PORT: env.PORT, SIS_DYNAMODB_PORT: env.SIS_DYNAMODB_PORT });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/Refused: An active admin API key already exists/);
    expect(again.stderr).not.toMatch(STACK_TRACE);
    expect(again.stdout).toBe('');
  }, 180_000);
});
