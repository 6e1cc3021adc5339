/**
 * Captures everything this process writes as logs while a test runs: process.stdout and
 * process.stderr writes (where the Powertools logger's own Console writes, as on Lambda) and the
 * global console methods (which vitest reroutes before they reach the streams). The local runtime
 * runs every handler, step and the authorizer in this process, so this sees all service logs.
 */
export interface LogCapture {
  /** Everything captured so far, one chunk per write. */
  chunks(): string[];
  text(): string;
  /** Parsed JSON log lines (Powertools structured logs); other lines are skipped. */
  records(): Record<string, unknown>[];
  stop(): void;
}

type Writable = { write: (...args: unknown[]) => boolean };
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

export function captureLogs(options: { passThrough?: boolean } = {}): LogCapture {
  const captured: string[] = [];
  const restores: (() => void)[] = [];
  const asText = (value: unknown) =>
    typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : String(value);

  for (const stream of [process.stdout, process.stderr] as unknown as Writable[]) {
    const original = stream.write;
    stream.write = (...args: unknown[]) => {
      captured.push(asText(args[0]));
      return options.passThrough ? original.apply(stream, args) : true;
    };
    restores.push(() => {
      stream.write = original;
    });
  }
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const method of CONSOLE_METHODS) {
    const original = target[method] as (...args: unknown[]) => void;
    target[method] = (...args: unknown[]) => {
      captured.push(args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' '));
      if (options.passThrough) original.apply(console, args);
    };
    restores.push(() => {
      target[method] = original;
    });
  }

  return {
    chunks: () => [...captured],
    text: () => captured.join('\n'),
    records: () =>
      captured
        .flatMap((chunk) => chunk.split('\n'))
        .flatMap((line) => {
          try {
            const parsed = JSON.parse(line) as unknown;
            return parsed && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : [];
          } catch {
            return [];
          }
        }),
    stop: () => {
      for (const restore of restores.reverse()) restore();
      restores.length = 0;
    },
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v) =>
      v instanceof Error ? { message: v.message, stack: v.stack } : v,
    );
  } catch {
    return String(value);
  }
}
