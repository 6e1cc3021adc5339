import { handlerProbe } from './handler-timing';

/**
 * The service's handlers log to stdout/stderr as they would on Lambda (where those lines become
 * CloudWatch Logs ingestion, a cost). During the bench their output is counted per label, for the
 * cost model, and kept off the terminal (error records still show, so a broken run is visible);
 * the bench's own progress goes to the real stderr through `say`.
 */
const realStdoutWrite = process.stdout.write.bind(process.stdout);
const realStderrWrite = process.stderr.write.bind(process.stderr);

export const logBytesByLabel = new Map<string, number>();
let installed = false;
let verbose = false;

function counting(passThrough: (chunk: string) => boolean) {
  return ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    const label = handlerProbe().label;
    if (label !== undefined) logBytesByLabel.set(label, (logBytesByLabel.get(label) ?? 0) + bytes);
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (verbose || passThrough(text)) realStderrWrite(chunk as never);
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write;
}

export function captureServiceOutput(options: { verbose: boolean }): void {
  if (installed) return;
  installed = true;
  verbose = options.verbose;
  const isError = (text: string) => /"level":"(ERROR|CRITICAL)"/.test(text);
  process.stdout.write = counting(isError);
  process.stderr.write = counting(isError);
}

export function say(message: string): void {
  realStderrWrite(`${message}\n`);
}

/** Writes straight to the terminal's stdout (the summary at the end). */
export function print(message: string): void {
  realStdoutWrite(`${message}\n`);
}
