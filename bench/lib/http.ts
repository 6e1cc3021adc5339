import { Agent, request } from 'undici';

/** A keep-alive HTTP client for the local gateway, as a plugin platform's client would hold one. */
export interface HttpAnswer {
  status: number;
  body: unknown;
  /** Response body size, uncompressed. */
  bytes: number;
  /** The body as received (the cost model measures its gzip size). */
  text: string;
  ms: number;
}

export class HttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly baseUrl: string,
    connections = 64,
  ) {
    this.agent = new Agent({
      connections,
      keepAliveTimeout: 60_000,
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
  }

  async call(
    method: 'GET' | 'POST',
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers['x-api-key'] = options.key;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const start = performance.now();
    const answer = await request(`${this.baseUrl}${path}`, { method, headers, body, dispatcher: this.agent });
    const text = await answer.body.text();
    const ms = performance.now() - start;
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: answer.statusCode, body: parsed, bytes: Buffer.byteLength(text), text, ms };
  }

  /** Like call, but an unexpected status is an error (a benchmark of failures measures nothing). */
  async expect(
    status: number | readonly number[],
    method: 'GET' | 'POST',
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer> {
    const answer = await this.call(method, path, options);
    const allowed = typeof status === 'number' ? [status] : status;
    if (!allowed.includes(answer.status)) {
      throw new Error(
        `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`,
      );
    }
    return answer;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

export interface LoadResult {
  /** Latency of each operation, ms. */
  latencies: number[];
  elapsedMs: number;
  perSecond: number;
}

/**
 * A closed loop: `concurrency` workers each run `operation` back to back until `count` operations
 * have started or `durationMs` has passed, whichever comes first.
 */
export async function closedLoop(
  operation: () => Promise<void>,
  options: { concurrency: number; count: number; durationMs: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let started = 0;
  const start = performance.now();
  const deadline = start + options.durationMs;
  const worker = async () => {
    while (started < options.count && performance.now() < deadline) {
      started++;
      const t = performance.now();
      await operation();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsedMs = performance.now() - start;
  return { latencies, elapsedMs, perSecond: (latencies.length / elapsedMs) * 1000 };
}

/**
 * `count` runs of `operation` one after another (at most a minute): each latency is one request
 * alone on the wire, the way the poll and MCP scenarios compare a call with its floor or twin.
 */
export async function sequentialLatencies(operation: () => Promise<void>, count: number): Promise<number[]> {
  return (await closedLoop(operation, { concurrency: 1, count, durationMs: 60_000 })).latencies;
}
