import { createHash, createHmac } from 'node:crypto';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * One S3 GetObject as a SigV4-signed HTTPS GET, for the run-tool step, which reads the feeds'
 * compiled sets: the S3 client would add about 175 KB to a bundle kept under 400 KB (issue #17),
 * while the signer is already there for DynamoDB. Credentials are the function's, from its
 * environment (as every Lambda bundle of this service reads them). Missing object: undefined.
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

export interface S3GetOptions {
  region: string;
  bucket: string;
  key: string;
  /** Tests: a local endpoint, addressed path-style (`<endpoint>/<bucket>/<key>`). */
  endpoint?: string;
  credentials?: () => Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string }>;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

export class S3GetError extends Error {
  override readonly name = 'S3GetError';
}

export async function s3GetObject(options: S3GetOptions): Promise<Uint8Array | undefined> {
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
    method: 'GET',
    protocol: base.protocol,
    hostname: base.hostname,
    ...(base.port ? { port: Number(base.port) } : {}),
    path,
    headers: {
      host: base.host,
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    },
    query: {},
  });
  const response = await (options.fetchImpl ?? fetch)(`${base.protocol}//${base.host}${path}`, {
    headers: signed.headers as Record<string, string>,
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new S3GetError(`S3 answered HTTP ${response.status} for ${options.key}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}
