import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { publishedDocumentValidator } from './openapi-response-validator';

export const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'bin', 'sis.mjs');

export interface SisRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the child's standard input, which is then closed. */
  input?: string;
  /** The Node binary to run with (default: this process's). */
  node?: string;
  cwd?: string;
}

/** Runs a Node script as a user would, with only the given environment (plus PATH, HOME and SIS_CACHE_DIR). */
export function runNodeScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: RunOptions = {},
): Promise<SisRun> {
  return new Promise((done, fail) => {
    const child = spawn(options.node ?? process.execPath, [script, ...args], {
      cwd: options.cwd ?? REPO,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        // the DynamoDB Local download cache (not running state), so a fresh worktree needs no download
        ...(process.env.SIS_CACHE_DIR ? { SIS_CACHE_DIR: process.env.SIS_CACHE_DIR } : {}),
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Runs the project's `sis` as an operator would (the package bin, on this Node), with only the given environment. */
export function sis(args: string[], env: Record<string, string>, options: RunOptions = {}): Promise<SisRun> {
  return runNodeScript(BIN, args, env, options);
}

/** The CLI's `--json` output must be the document of the operation it calls (and no stack trace). */
export function expectDocumented(run: SisRun, method: string, path: string, status: number) {
  expect(run.stderr).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
  const body = JSON.parse(run.stdout);
  const check = publishedDocumentValidator().check({
    method,
    path,
    status,
    contentType: 'application/json',
    body,
  });
  expect(check, JSON.stringify(check)).toMatchObject({ ok: true });
  return body;
}
