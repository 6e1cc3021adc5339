import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'bin', 'sis.mjs');

export interface SisRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `sis` as an operator would (the package bin, on this Node), with only the given environment. */
export function sis(args: string[], env: Record<string, string>): Promise<SisRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
