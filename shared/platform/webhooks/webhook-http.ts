import { lookup } from 'node:dns/promises';
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { ValidationError } from '../../domain/core/errors';
import {
  checkedWebhookUrl,
  ipLiteral,
  isDeliverableAddress,
  type WebhookUrlPolicy,
} from '../../domain/webhooks/webhook-url';

/**
 * The one outbound door of webhooks: a POST to a URL an admin chose, made so it cannot be turned
 * against the tenant's own network (docs/security.md). The host is resolved here, every address it
 * resolves to must be public (webhook-url.ts), and the connection is pinned to the checked address
 * (the socket's `lookup` answers with it), so a DNS answer that changes between the check and the
 * connect is never used. TLS still verifies the certificate against the URL's host name (SNI).
 * Redirects are not followed (a 3xx is an answer like any other), the answer's body is read up to
 * `ANSWER_BYTE_CAP` and dropped, and the whole attempt is bounded by `timeoutMs`.
 */
export const ANSWER_BYTE_CAP = 16 * 1024;

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type WebhookAnswer =
  | { kind: 'answered'; statusCode: number; retryAfter?: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string };

export interface WebhookHttpOptions extends WebhookUrlPolicy {
  timeoutMs: number;
}

export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * The addresses a delivery to `url` may connect to; ValidationError (naming `url`) when the URL is
 * refused or any resolved address is not public (one private answer among public ones is refused
 * too: which one a connection would take is not ours to choose).
 */
export async function resolveWebhookUrl(
  text: string,
  policy: WebhookUrlPolicy,
  resolve: ResolveHost = systemResolver,
): Promise<{ url: URL; address: string; family: number }> {
  const url = checkedWebhookUrl(text, policy);
  const refuse = (message: string) => new ValidationError(message, [{ path: 'url', message }]);
  const literal = ipLiteral(url.hostname);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(url.hostname);
    } catch {
      throw refuse(`the host ${url.hostname} does not resolve`);
    }
  }
  const first = addresses[0];
  if (!first) throw refuse(`the host ${url.hostname} does not resolve`);
  if (!addresses.every((a) => isDeliverableAddress(a.address, policy))) {
    throw refuse(
      `the host ${url.hostname} resolves to an address that is not public (private, loopback, link-local or multicast)`,
    );
  }
  return { url, address: first.address, family: first.family };
}

/** POSTs once; never throws (the answer, a refusal before sending, or why it failed). */
export async function postWebhook(
  post: WebhookPost,
  options: WebhookHttpOptions,
  resolve: ResolveHost = systemResolver,
): Promise<WebhookAnswer> {
  let target: Awaited<ReturnType<typeof resolveWebhookUrl>>;
  try {
    target = await resolveWebhookUrl(post.url, options, resolve);
  } catch (error) {
    return { kind: 'refused', reason: (error as Error).message };
  }
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  return new Promise<WebhookAnswer>((resolveAnswer) => {
    let settled = false;
    const settle = (answer: WebhookAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolveAnswer(answer);
    };
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req: ClientRequest = send(
      target.url,
      {
        method: 'POST',
        headers: {
          ...post.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(post.body)),
          'user-agent': 'security-investigation-service-webhooks/1',
        },
        lookup: pinned,
        // No connection reuse: each attempt connects to the address it has just checked.
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_BYTE_CAP) res.destroy();
        });
        const answered = () =>
          settle({
            kind: 'answered',
            statusCode: res.statusCode ?? 0,
            ...(typeof res.headers['retry-after'] === 'string'
              ? { retryAfter: res.headers['retry-after'] }
              : {}),
          });
        res.on('end', answered);
        res.on('close', answered);
        res.on('error', answered);
      },
    );
    const timer = setTimeout(() => {
      settle({ kind: 'failed', reason: `no answer within ${options.timeoutMs} ms` });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) => settle({ kind: 'failed', reason: `connection failed: ${error.message}` }));
    req.end(post.body);
  });
}
