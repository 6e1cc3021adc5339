import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  S3ObjectError,
  s3DeleteObject,
  s3GetObject,
  s3PutObject,
} from '../../../shared/platform/feeds/s3-objects';

/**
 * The feeds' S3 reads (the run-tool step), writes and deletes (the refresh) as SigV4-signed requests,
 * no S3 client, against a local server answering as S3 does (path-style): requests are signed for
 * service s3 with the function's credentials, a PUT signs its payload's SHA-256 (which S3 checks
 * against the body it receives), a missing object is undefined, a DELETE answers 204 whether or not
 * the object existed, a refusal is an error.
 */
let base: string;
const seen: { method: string; url: string; headers: Record<string, string | string[] | undefined> }[] = [];
const stored = new Map<string, Buffer>();
const server = createServer((req, res) => {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  const url = req.url ?? '';
  if (req.method === 'PUT') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (url.startsWith('/bucket-a/feeds/DENIED')) return void res.writeHead(403).end('<Error/>');
      // As S3: a body whose SHA-256 is not the signed one is refused.
      if (createHash('sha256').update(body).digest('hex') !== req.headers['x-amz-content-sha256'])
        return void res.writeHead(400).end('<Error><Code>XAmzContentSHA256Mismatch</Code></Error>');
      stored.set(url, body);
      res.writeHead(200, { etag: '"x"' }).end();
    });
    return;
  }
  if (req.method === 'DELETE') {
    if (url.startsWith('/bucket-a/feeds/DENIED')) return void res.writeHead(403).end('<Error/>');
    stored.delete(url);
    return void res.writeHead(204).end();
  }
  if (url === '/bucket-a/feeds/FEODO.sisfeed.gz') return void res.writeHead(200).end(Buffer.from([1, 2, 3]));
  if (url === '/bucket-a/feeds/DENIED.sisfeed.gz') return void res.writeHead(403).end('<Error/>');
  const object = stored.get(url);
  if (object) return void res.writeHead(200).end(object);
  res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
});

beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const credentials = async () => ({
  accessKeyId: 'AKIDFEEDSTEST',
  secretAccessKey: 'not-a-secret',
  sessionToken: 'tok',
});
const at = (key: string) => ({ region: 'eu-west-1', bucket: 'bucket-a', key, endpoint: base, credentials });
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=AKIDFEEDSTEST\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host;[a-z0-9;-]*x-amz-content-sha256;x-amz-date[a-z0-9;-]*, Signature=[0-9a-f]{64}$/;

describe('s3GetObject', () => {
  it('sends a SigV4 GET for s3 with the session token and reads the body', async () => {
    const body = await s3GetObject(at('feeds/FEODO.sisfeed.gz'));
    expect([...(body ?? [])]).toEqual([1, 2, 3]);
    const request = seen.at(-1)!;
    expect(String(request.headers.authorization)).toMatch(AUTHORIZATION);
    expect(request.headers['x-amz-security-token']).toBe('tok');
    expect(request.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
  });

  it('answers undefined for a missing object and throws on a refusal', async () => {
    expect(await s3GetObject(at('feeds/NONE.sisfeed.gz'))).toBeUndefined();
    await expect(s3GetObject(at('feeds/DENIED.sisfeed.gz'))).rejects.toBeInstanceOf(S3ObjectError);
  });
});

describe('s3PutObject', () => {
  it('sends a SigV4 PUT signing the payload hash and the content type; the object reads back whole', async () => {
    const body = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    await s3PutObject({ ...at('feeds/TOR_EXITS.sisfeed.gz'), body });
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'PUT', url: '/bucket-a/feeds/TOR_EXITS.sisfeed.gz' });
    expect(String(request.headers.authorization)).toMatch(AUTHORIZATION);
    expect(String(request.headers.authorization)).toContain('content-type;host;');
    expect(request.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(body).digest('hex'));
    expect(request.headers['content-type']).toBe('application/octet-stream');
    expect(request.headers['content-length']).toBe(String(body.byteLength));
    expect(request.headers['x-amz-security-token']).toBe('tok');
    const read = await s3GetObject(at('feeds/TOR_EXITS.sisfeed.gz'));
    expect(Buffer.from(read!).equals(Buffer.from(body))).toBe(true);
  });

  it('throws on a refusal, naming the status and not the credentials', async () => {
    const error = await s3PutObject({ ...at('feeds/DENIED.sisfeed.gz'), body: new Uint8Array([1]) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(S3ObjectError);
    expect((error as Error).message).toBe('S3 answered HTTP 403 for feeds/DENIED.sisfeed.gz');
  });
});

describe('s3DeleteObject', () => {
  it('sends a signed DELETE of the versioned key, after which the object is gone', async () => {
    const key = 'feeds/CINS/20261127T100000000Z.sisfeed.gz';
    await s3PutObject({ ...at(key), body: new Uint8Array([7]) });
    await s3DeleteObject(at(key));
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'DELETE', url: `/bucket-a/${key}` });
    expect(request.headers.authorization).toMatch(AUTHORIZATION);
    expect(await s3GetObject(at(key))).toBeUndefined();
    await expect(s3DeleteObject(at(key))).resolves.toBeUndefined();
  });

  it('throws on a refusal', async () => {
    await expect(s3DeleteObject(at('feeds/DENIED/x.sisfeed.gz'))).rejects.toThrow(
      'S3 answered HTTP 403 for feeds/DENIED/x.sisfeed.gz',
    );
  });
});
