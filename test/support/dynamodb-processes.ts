import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Whether a process is still running. A zombie (exited, not yet reaped by whoever adopted it) counts
 * as gone: it holds no port, memory or files.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux') return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  return true;
}

/**
 * Runs an ES module snippet in a separate Node process that can import the project's TypeScript (via
 * tsx), for tests about what happens across processes. The snippet's stdout lines are collected.
 */
export function runModuleSnippet(code: string, env: Record<string, string> = {}): SnippetProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let partial = '';
  const waiters: (() => void)[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line.trim() !== ''));
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  void exited.then(() => {
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    child,
    exited,
    stderr: () => stderr,
    async nextLine(timeoutMs: number): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = lines.shift();
        if (line !== undefined) return line;
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`snippet exited (${child.exitCode ?? child.signalCode}) without output: ${stderr}`);
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error(`snippet printed nothing within ${timeoutMs} ms: ${stderr}`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, remaining);
        });
      }
    },
  };
}

export interface SnippetProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr(): string;
  nextLine(timeoutMs: number): Promise<string>;
}
