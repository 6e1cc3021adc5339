import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { REPO } from './sis-cli';

/**
 * `npm start` as an operator runs it: local/main.ts in a process of its own (what the start script
 * runs once the console is built), with its own DynamoDB Local on a data directory and only the
 * environment given (plus PATH, HOME and the download cache).
 */
export interface StartedProcess {
  child: ChildProcess;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export function baseEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...(process.env.SIS_CACHE_DIR ? { SIS_CACHE_DIR: process.env.SIS_CACHE_DIR } : {}),
  };
}

export function spawnLocalMain(env: Record<string, string>): StartedProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: REPO,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Starts local/main.ts and waits for its banner ("Ready in ..."); throws with its output if it ends first. */
export async function startLocalMain(
  env: Record<string, string>,
  timeoutMs = 150_000,
): Promise<StartedProcess> {
  const started = spawnLocalMain(env);
  const deadline = Date.now() + timeoutMs;
  while (!started.output().stdout.includes('Ready in')) {
    if (started.child.exitCode !== null || Date.now() > deadline) {
      await started.stop();
      const { stdout, stderr } = started.output();
      throw new Error(`local/main.ts did not start:\n${stdout}\n${stderr}`);
    }
    await new Promise((pause) => setTimeout(pause, 100));
  }
  return started;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const probe = createServer();
    probe.once('error', () => answer(false));
    probe.listen({ port, exclusive: true }, () => probe.close(() => answer(true)));
  });
}
