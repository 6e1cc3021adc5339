import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { redactUrl } from '../../domain/feeds/status';
import { readBodyUpTo } from '../http/capped-body';

/**
 * Downloads one feed source: `http(s)://` with conditional requests (If-None-Match /
 * If-Modified-Since), a byte cap and a time limit over the whole transfer, or `file://` (air-gapped
 * tenants, tests) with the same cap. Never follows the body past the cap: a 2 GB answer costs at
 * most the cap in memory. Errors carry a reason safe to show (the URL without its key).
 */

export interface Validators {
  etag?: string;
  last_modified?: string;
}

export interface DownloadRequest {
  url: string;
  maxBytes: number;
  timeoutMs: number;
  validators?: Validators;
  /** Extra request headers (none carry secrets into logs: errors never print headers). */
  headers?: Record<string, string>;
  fetchImpl?: typeof fetch;
}

export type DownloadResult =
  | { status: 'not_modified' }
  | { status: 'ok'; body: Uint8Array; validators: Validators };

export class FeedDownloadError extends Error {
  override readonly name = 'FeedDownloadError';
}

const mb = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

async function readFileCapped(url: string, maxBytes: number): Promise<DownloadResult> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(fileURLToPath(url), 'r');
  } catch {
    throw new FeedDownloadError(`cannot read ${url}`);
  }
  try {
    const { size, mtime } = await handle.stat();
    if (size > maxBytes) throw new FeedDownloadError(`the file is larger than the ${mb(maxBytes)} cap`);
    const body = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(body, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return { status: 'ok', body: body.subarray(0, at), validators: { last_modified: mtime.toUTCString() } };
  } finally {
    await handle.close();
  }
}

async function readBodyCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const body = await readBodyUpTo(response, maxBytes);
  if (body.ok) return body.bytes;
  throw new FeedDownloadError(
    body.over === 'declared'
      ? `the answer is larger than the ${mb(maxBytes)} cap (${mb(body.declared)} declared)`
      : `the answer is larger than the ${mb(maxBytes)} cap; the download was cut`,
  );
}

const MAX_REDIRECTS = 5;

/**
 * Follows redirects by hand, only on the same host and never from https down to http: a redirect
 * elsewhere could carry the Auth-Key in the URL to another party, or the download off the publisher.
 */
async function fetchFollowingSameHost(
  request: DownloadRequest,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> {
  let url = new URL(request.url);
  for (let hop = 0; ; hop++) {
    const response = await (request.fetchImpl ?? fetch)(url, { headers, signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || !location)
      return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, url);
    if (next.host !== url.host || (url.protocol === 'https:' && next.protocol !== 'https:')) {
      throw new FeedDownloadError(
        `${redactUrl(request.url)} redirected to ${next.protocol}//${next.host}: only redirects on the same host, never down to http, are followed`,
      );
    }
    if (hop >= MAX_REDIRECTS)
      throw new FeedDownloadError(`${redactUrl(request.url)} redirected more than ${MAX_REDIRECTS} times`);
    url = next;
  }
}

export async function downloadFeed(request: DownloadRequest): Promise<DownloadResult> {
  const shown = redactUrl(request.url);
  if (request.url.startsWith('file://')) return readFileCapped(request.url, request.maxBytes);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    const headers: Record<string, string> = {
      'user-agent': 'security-investigation-service feeds',
      ...request.headers,
    };
    if (request.validators?.etag) headers['if-none-match'] = request.validators.etag;
    if (request.validators?.last_modified) headers['if-modified-since'] = request.validators.last_modified;
    const response = await fetchFollowingSameHost(request, headers, controller.signal);
    if (response.status === 304) {
      await response.body?.cancel().catch(() => undefined);
      return { status: 'not_modified' };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new FeedDownloadError(`${shown} answered HTTP ${response.status}`);
    }
    const body = await readBodyCapped(response, request.maxBytes);
    const validators: Validators = {};
    const etag = response.headers.get('etag');
    const lastModified = response.headers.get('last-modified');
    if (etag) validators.etag = etag;
    if (lastModified) validators.last_modified = lastModified;
    return { status: 'ok', body, validators };
  } catch (error) {
    if (controller.signal.aborted) {
      throw new FeedDownloadError(`${shown} did not finish within ${Math.round(request.timeoutMs / 1000)} s`);
    }
    if (error instanceof FeedDownloadError) throw error;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new FeedDownloadError(`${shown} could not be fetched${cause ? ` (${cause})` : ''}`);
  } finally {
    clearTimeout(timer);
  }
}
