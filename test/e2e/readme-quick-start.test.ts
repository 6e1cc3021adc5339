import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../support/console-sign-in';
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

/** The PATH of a user's shell: without the node_modules/.bin folders the test runner put first. */
const userPath = () =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(delimiter);

function bash(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', script], {
      cwd: REPO,
      env: { ...baseEnv(), PATH: userPath(), ...env },
    });
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
    SIS_CONSOLE_ADMIN_PASSWORD: 'quick-start-admin-password',
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
    // Nothing a user should worry about: no npm engine warnings, no warnings of any kind.
    expect(first.stderr).not.toMatch(/EBADENGINE|npm warn|WARNING/i);

    // Pasted again: bootstrap refuses (an admin key is active) and the chain stops there, cleanly.
    const again = await bash(block, { PORT: env.PORT, SIS_DYNAMODB_PORT: env.SIS_DYNAMODB_PORT });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/Refused: An active admin API key already exists/);
    expect(again.stderr).not.toMatch(STACK_TRACE);
    expect(again.stdout).toBe('');
  }, 180_000);
});

describe('start-up and sign-in', () => {
  it('print nothing a user should worry about (no runtime, adapter or CORS notice of the issuer)', async () => {
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    const signedIn = await signInToConsole(baseUrl, {
      username: 'admin',
      password: 'quick-start-admin-password',
    });
    expect(signedIn.idToken.split('.')).toHaveLength(3);
    // A browser's token request carries Origin: the console's own origin is allowed, another is not.
    const token = (origin: string) =>
      fetch(`${baseUrl}/oidc/oauth2/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'not-a-code',
          client_id: 'sis-console-local',
          redirect_uri: `${baseUrl}/auth/callback`,
          code_verifier: 'x'.repeat(43),
        }),
      });
    const own = await token(baseUrl);
    expect(own.headers.get('access-control-allow-origin')).toBe(baseUrl);
    const foreign = await token('https://elsewhere.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const { stdout, stderr } = service.output();
    expect(stderr).toBe('');
    expect(stdout).not.toMatch(/oidc-provider|WARNING|NOTICE|MUST/);
  });
});
