import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3GetError, s3GetObject } from '../../shared/platform/feeds/s3-get';

/**
 * The run-tool step's S3 read (a SigV4-signed GET, no S3 client) against a local server answering
 * as S3 does (path-style): the request is signed for service s3 with the function's credentials, a
 * missing object is undefined, a refusal an error.
 */
let base: string;
const seen: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  if (req.url === '/bucket-a/feeds/FEODO.sisfeed.gz')
    return void res.writeHead(200).end(Buffer.from([1, 2, 3]));
  if (req.url === '/bucket-a/feeds/DENIED.sisfeed.gz') return void res.writeHead(403).end('<Error/>');
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

describe('s3GetObject', () => {
  it('sends a SigV4 GET for s3 with the session token and reads the body', async () => {
    const body = await s3GetObject({
      region: 'eu-west-1',
      bucket: 'bucket-a',
      key: 'feeds/FEODO.sisfeed.gz',
      endpoint: base,
      credentials,
    });
    expect([...(body ?? [])]).toEqual([1, 2, 3]);
    const request = seen.at(-1)!;
    expect(String(request.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFEEDSTEST\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host;[a-z0-9;-]*x-amz-content-sha256;x-amz-date[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(request.headers['x-amz-security-token']).toBe('tok');
    expect(request.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
  });

  it('answers undefined for a missing object and throws on a refusal', async () => {
    expect(
      await s3GetObject({
        region: 'eu-west-1',
        bucket: 'bucket-a',
        key: 'feeds/NONE.sisfeed.gz',
        endpoint: base,
        credentials,
      }),
    ).toBeUndefined();
    await expect(
      s3GetObject({
        region: 'eu-west-1',
        bucket: 'bucket-a',
        key: 'feeds/DENIED.sisfeed.gz',
        endpoint: base,
        credentials,
      }),
    ).rejects.toBeInstanceOf(S3GetError);
  });
});
