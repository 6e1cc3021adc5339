import { createHash, createHmac } from 'node:crypto';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * S3 GetObject, PutObject and DeleteObject as SigV4-signed HTTPS requests, for the feeds' compiled
 * sets: the run-tool step reads them, the refresh (the feeds-refresh and refresh-feeds functions)
 * writes each new version and deletes the one it replaced.
 * The S3 client would add about 310 KB to a bundle kept under 400 KB (issue #17: the client with its
 * XML protocol, checksums and a second copy of the SDK's core), while the signer is already there
 * for DynamoDB. Credentials are the function's, from its environment (as every Lambda bundle of this
 * service reads them). Missing object: undefined.
 */

/** SHA-256 (or HMAC-SHA256 with a secret) in the shape the signer expects. */
class Sha256 {
  private readonly hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(toBuffer(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    throw new Error('not supported');
  }
}

function toBuffer(data: string | ArrayBuffer | ArrayBufferView): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

export interface S3ObjectOptions {
  region: string;
  bucket: string;
  key: string;
  /** Tests: a local endpoint, addressed path-style (`<endpoint>/<bucket>/<key>`). */
  endpoint?: string;
  credentials?: () => Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string }>;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}
export class S3ObjectError extends Error {
  override readonly name = 'S3ObjectError';
}

/** The object's URL and its request signed for service s3 (path-style for a local endpoint). */
async function signedRequest(
  options: S3ObjectOptions,
  method: 'GET' | 'PUT' | 'DELETE',
  headers: Record<string, string>,
): Promise<{ url: string; headers: Record<string, string> }> {
  const base = options.endpoint
    ? new URL(`${options.endpoint.replace(/\/+$/, '')}/${options.bucket}/`)
    : new URL(`https://${options.bucket}.s3.${options.region}.amazonaws.com/`);
  const path = `${base.pathname}${options.key.split('/').map(encodeURIComponent).join('/')}`;
  const signer = new SignatureV4({
    service: 's3',
    region: options.region,
    credentials: options.credentials ?? fromEnv(),
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const signed = await signer.sign({
    method,
    protocol: base.protocol,
    hostname: base.hostname,
    ...(base.port ? { port: Number(base.port) } : {}),
    path,
    headers: { host: base.host, ...headers },
    query: {},
  });
  return { url: `${base.protocol}//${base.host}${path}`, headers: signed.headers as Record<string, string> };
}

export async function s3GetObject(options: S3ObjectOptions): Promise<Uint8Array | undefined> {
  const request = await signedRequest(options, 'GET', { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' });
  const response = await (options.fetchImpl ?? fetch)(request.url, {
    headers: request.headers,
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new S3ObjectError(`S3 answered HTTP ${response.status} for ${options.key}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Replaces the object whole (a single PUT: readers see the old object or the new one, never a part).
 * The payload's SHA-256 is signed, so S3 refuses a body altered on the way.
 */
export async function s3PutObject(
  options: S3ObjectOptions & { body: Uint8Array; contentType?: string },
): Promise<void> {
  const digest = createHash('sha256').update(options.body).digest('hex');
  const request = await signedRequest(options, 'PUT', {
    'content-type': options.contentType ?? 'application/octet-stream',
    'x-amz-content-sha256': digest,
  });
  const response = await (options.fetchImpl ?? fetch)(request.url, {
    method: 'PUT',
    headers: request.headers,
    body: options.body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw new S3ObjectError(`S3 answered HTTP ${response.status} for ${options.key}`);
}

/** Deletes the object (S3 answers 204 whether or not it existed). */
export async function s3DeleteObject(options: S3ObjectOptions): Promise<void> {
  const request = await signedRequest(options, 'DELETE', {
    'x-amz-content-sha256': createHash('sha256').digest('hex'),
  });
  const response = await (options.fetchImpl ?? fetch)(request.url, {
    method: 'DELETE',
    headers: request.headers,
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok && response.status !== 404)
    throw new S3ObjectError(`S3 answered HTTP ${response.status} for ${options.key}`);
}
