import { SourceUnavailableError } from '../domain/core/errors';
import type { ProviderAnswer, ProviderRequest } from '../domain/intel/connectors';
import { readBodyUpTo } from './http/capped-body';

/**
 * The one HTTP client of the intelligence connectors: the provider request a connector declares,
 * sent to its base URL with its key header, a timeout per attempt, and retries with exponential
 * backoff (full jitter) on 429 and 5xx, honouring Retry-After when it fits the caller's time.
 * Errors carry only safe text (the source and a status), never the key or the provider's body.
 */

export interface ProviderCall {
  /** Shown in errors: the connector's title. */
  source: string;
  baseUrl: string;
  keyHeader: string | null;
  key?: string | undefined;
  answerStatuses: readonly number[];
  timeoutMs: number;
  retries: number;
  /** Aborted when the tool's own time is up. */
  signal: AbortSignal;
  fetchImpl?: typeof fetch;
}

/** The most a provider's answer may hold, in bytes (not characters): larger ones are cut off unread. */
export const MAX_BODY_BYTES = 1_048_576;
const BACKOFF_BASE_MS = 250;
const MAX_WAIT_MS = 5_000;

function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether a provider's base URL may be called: https, or plain http to this machine only (the
 * tests' local servers). Plain http elsewhere would send the key and the indicator in clear.
 */
export function isAllowedProviderUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:') return true;
    return parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
  } catch {
    return false;
  }
}

/**
 * The answer's body as text, or undefined when it passes `maxBytes` (readBodyUpTo: a huge or endless
 * answer costs at most `maxBytes` of memory and the time to read them).
 */
export async function readCapped(response: Response, maxBytes: number): Promise<string | undefined> {
  const body = await readBodyUpTo(response, maxBytes);
  return body.ok
    ? Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength).toString('utf8')
    : undefined;
}

export function requestUrl(baseUrl: string, request: ProviderRequest): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

/** Sends the request; resolves with a 2xx or documented "not found" answer, else throws safely. */
export async function callProvider(request: ProviderRequest, call: ProviderCall): Promise<ProviderAnswer> {
  const fetchImpl = call.fetchImpl ?? fetch;
  const headers: Record<string, string> = {
    'user-agent': 'security-investigation-service',
    ...request.headers,
  };
  if (call.keyHeader && call.key) headers[call.keyHeader] = call.key;
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  const url = requestUrl(call.baseUrl, request);
  if (!isAllowedProviderUrl(url)) {
    throw new SourceUnavailableError(`${call.source} is configured with a URL that is not https; not asked.`);
  }
  let lastProblem = 'did not answer';
  for (let attempt = 0; attempt <= call.retries; attempt++) {
    if (call.signal.aborted) break;
    let waitMs: number | undefined;
    try {
      const response = await fetchImpl(url, {
        method: request.method,
        headers,
        body,
        redirect: 'error',
        signal: AbortSignal.any([call.signal, AbortSignal.timeout(call.timeoutMs)]),
      });
      const ok = response.ok || call.answerStatuses.includes(response.status);
      if (ok) {
        const text = await readCapped(response, MAX_BODY_BYTES);
        if (text === undefined) throw new SourceUnavailableError(`${call.source} answered too much.`);
        try {
          return { status: response.status, body: text ? JSON.parse(text) : {} };
        } catch {
          throw new SourceUnavailableError(`${call.source} answered something that is not JSON.`);
        }
      }
      await response.body?.cancel().catch(() => undefined);
      lastProblem = `answered HTTP ${response.status}`;
      if (response.status !== 429 && response.status < 500) {
        throw new SourceUnavailableError(`${call.source} refused the lookup (HTTP ${response.status}).`);
      }
      waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
    } catch (error) {
      if (error instanceof SourceUnavailableError) throw error;
      if (call.signal.aborted) break;
      lastProblem = (error as Error)?.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
    }
    if (attempt === call.retries) break;
    const backoff = Math.random() * BACKOFF_BASE_MS * 2 ** attempt;
    const wait = waitMs ?? backoff;
    // A Retry-After longer than we may wait ends the attempts: the provider asked us to stay away.
    if (wait > MAX_WAIT_MS) break;
    try {
      await sleep(wait, call.signal);
    } catch {
      break;
    }
  }
  throw new SourceUnavailableError(`${call.source} ${lastProblem}.`);
}
