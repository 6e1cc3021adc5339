import { registerHooks } from 'node:module';

/**
 * Times every invocation of every Lambda handler the local runtime runs (gateway routes, the
 * authorizer, workflow steps), without touching the runtime: a module hook serves each
 * `functions/<name>/handler.ts` as a thin wrapper around the real module (imported under a
 * `?bench-original` URL), which reports the invocation's start and end. These are the durations
 * Lambda would bill, measured on this machine.
 */
export interface Invocation {
  functionName: string;
  startMs: number;
  endMs: number;
  /** The label current when the invocation started (see `label`). */
  label: string | undefined;
  /** session_id of a workflow step's input, to group steps by investigation. */
  sessionId: string | undefined;
  failed: boolean;
}

interface Probe {
  label: string | undefined;
  invocations: Invocation[];
  record(functionName: string, startMs: number, endMs: number, event: unknown, failed: boolean): void;
}

const PROBE_KEY = '__sisBenchProbe';

const probe: Probe = {
  label: undefined,
  invocations: [],
  record(functionName, startMs, endMs, event, failed) {
    const sessionId = (event as { session_id?: unknown } | null)?.session_id;
    probe.invocations.push({
      functionName,
      startMs,
      endMs,
      label: probe.label,
      sessionId: typeof sessionId === 'string' ? sessionId : undefined,
      failed,
    });
  },
};

let installed = false;

function wrapperSource(functionName: string, originalUrl: string): string {
  return `import { handler as original } from ${JSON.stringify(originalUrl)};
export const handler = async (event, context) => {
  const start = performance.now();
  let failed = false;
  try {
    return await original(event, context);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    globalThis.${PROBE_KEY}.record(${JSON.stringify(functionName)}, start, performance.now(), event, failed);
  }
};`;
}

/** Installs the hook; must run before the local runtime imports any handler. */
export function installHandlerTiming(): Probe {
  if (installed) return probe;
  installed = true;
  (globalThis as Record<string, unknown>)[PROBE_KEY] = probe;
  registerHooks({
    // A resolve hook, not a load hook: the wrapper is a data: URL importing the original by its
    // absolute URL, so the loaders behind this one (tsx) never see anything unusual.
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      const match = /\/functions\/([a-z0-9-]+)\/handler\.ts$/.exec(resolved.url);
      if (!match) return resolved;
      const source = wrapperSource(match[1] as string, `${resolved.url}?bench-original`);
      return {
        url: `data:text/javascript,${encodeURIComponent(source)}`,
        format: 'module',
        shortCircuit: true,
      };
    },
  });
  return probe;
}

export function handlerProbe(): Probe {
  return probe;
}
