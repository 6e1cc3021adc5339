import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../shared/config';
import { SourceUnavailableError } from '../../../shared/domain/core/errors';
import { callProvider, MAX_BODY_BYTES } from '../../../shared/platform/intel-http';
import { IntelLookups } from '../../../shared/services/intel/intel-lookups';
import { documentClientFor } from '../../../shared/store/dynamo-client';
import { IntelRepository } from '../../../shared/store/intel-repository';
import { createIsolatedTables, type IsolatedTables } from '../../support/dynamodb';
import { intelFixture } from '../../support/intel-fake-server';

/**
 * Issue #27 item 6: outbound HTTP to the intelligence providers. Answers are read as a stream with a
 * byte cap (and a Content-Length over it is refused unread), only https (or loopback http) is called,
 * an answer too large for one DynamoDB item is used but not cached, and a cache failure never counts
 * against the provider's circuit breaker. The provider is a local server answering AbuseIPDB's
 * documented `/check` shape (its `verbose` reports are what makes a real answer large).
 */

interface Sent {
  /** Bytes the server managed to write before the client went away or it finished. */
  written: number;
  finished: boolean;
}

let server: Server;
let base: string;
const sent: Sent[] = [];
const requests: string[] = [];

/** An AbuseIPDB answer padded with `reports` to about `bytes` of JSON. */
function largeAbuseIpdbAnswer(bytes: number): string {
  const answer = intelFixture('abuseipdb-check.json') as { data: { reports: unknown[] } };
  const report = answer.data.reports[0] as Record<string, unknown>;
  const one = JSON.stringify(report).length + 1;
  answer.data.reports = Array.from({ length: Math.ceil(bytes / one) }, () => report);
  return JSON.stringify(answer);
}

function streamSlowly(res: ServerResponse, totalBytes: number, record: Sent): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no Content-Length
  res.on('close', () => undefined);
  const tick = () => {
    if (res.destroyed) return;
    if (record.written >= totalBytes) {
      record.finished = true;
      res.end();
      return;
    }
    res.write(chunk);
    record.written += chunk.length;
    setTimeout(tick, 5);
  };
  tick();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ip = url.searchParams.get('ipAddress') ?? '';
    requests.push(ip);
    const record: Sent = { written: 0, finished: false };
    sent.push(record);
    if (ip === '203.0.113.10') return streamSlowly(res, 6 * MAX_BODY_BYTES, record);
    if (ip === '203.0.113.11') {
      // Announces 5 MB, sends a little, then keeps the connection open.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(5_000_000) });
      res.write('{"data":');
      return;
    }
    if (ip === '203.0.113.12') {
      // 600,000 two-byte characters: under the cap in characters, 1.2 MB in bytes.
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ data: { comment: 'é'.repeat(600_000) } }));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      ip === '198.51.100.200'
        ? largeAbuseIpdbAnswer(600_000)
        : JSON.stringify(intelFixture('abuseipdb-check.json')),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const call = (baseUrl: string, signal = AbortSignal.timeout(10_000)) => ({
  source: 'AbuseIPDB v2',
  baseUrl,
  keyHeader: 'Key',
  key: 'abuseipdb-test-key-0001',
  answerStatuses: [],
  timeoutMs: 3_000,
  retries: 0,
  signal,
});
const check = (ip: string) => ({ method: 'GET' as const, path: '/check', query: { ipAddress: ip } });

describe('reading a provider’s answer', () => {
  it('stops reading an endless answer at the byte cap instead of reading it whole', async () => {
    const before = sent.length;
    await expect(callProvider(check('203.0.113.10'), call(base))).rejects.toThrow(/answered too much/);
    const record = sent[before]!;
    // Give the server a moment to notice the closed connection.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(record.finished).toBe(false);
    expect(record.written).toBeLessThan(3 * MAX_BODY_BYTES);
  });

  it('refuses a Content-Length over the cap without waiting for the body', async () => {
    const started = Date.now();
    await expect(callProvider(check('203.0.113.11'), call(base))).rejects.toThrow(/answered too much/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('counts bytes, not characters', async () => {
    await expect(callProvider(check('203.0.113.12'), call(base))).rejects.toThrow(/answered too much/);
  });

  it('never sends a key over plain http to another machine', async () => {
    const before = requests.length;
    const error = await callProvider(check('192.0.2.1'), call('http://intel.example.invalid/api/v2')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(/not https/);
    expect(requests.length).toBe(before);
  });
});

describe('intel base URLs in the configuration', () => {
  it.each(['http://intel.example.com/api', 'http://10.0.0.5/api', 'ftp://intel.example.com'])(
    'refuses %s, naming the variable',
    (url) => {
      expect(() => parseConfig({ SIS_INTEL_OTX_URL: url, SIS_INTEL_OTX_API_KEY: 'otx-key-000001' })).toThrow(
        ConfigError,
      );
      expect(() => parseConfig({ SIS_INTEL_OTX_URL: url, SIS_INTEL_OTX_API_KEY: 'otx-key-000001' })).toThrow(
        /SIS_INTEL_OTX_URL: must be an https URL/,
      );
    },
  );

  it.each([
    'https://otx.example.com/api',
    'http://127.0.0.1:4010/otx',
    'http://localhost:4010',
    'http://[::1]:4010',
  ])('accepts %s', (url) => {
    expect(
      parseConfig({ SIS_INTEL_OTX_URL: url, SIS_INTEL_OTX_API_KEY: 'otx-key-000001' }).SIS_INTEL_OTX_URL,
    ).toBe(url);
  });
});

describe('caching a large answer', () => {
  let tables: IsolatedTables;
  let repo: IntelRepository;
  let lookups: IntelLookups;

  beforeAll(async () => {
    tables = await createIsolatedTables();
    const cfg = parseConfig({
      ...tables.env,
      SIS_INTEL_ABUSEIPDB_API_KEY: 'abuseipdb-test-key-0001',
      SIS_INTEL_ABUSEIPDB_URL: base,
      SIS_INTEL_RETRIES: '0',
    });
    repo = new IntelRepository(documentClientFor(cfg), tables.names.intel);
    lookups = new IntelLookups({ cfg, repo });
  });

  afterAll(() => tables?.client.destroy());

  it('uses an answer too large for one item, leaves it uncached and keeps the circuit closed', async () => {
    const entity = { type: 'ip' as const, value: '198.51.100.200' };
    const before = requests.filter((ip) => ip === entity.value).length;
    for (let i = 0; i < 4; i++) {
      const result = await lookups.lookup('abuseipdb', entity, {
        signal: AbortSignal.timeout(10_000),
        refresh: false,
      });
      expect(result.cached).toBe(false);
      expect((result.answer.body as { data: { reports: unknown[] } }).data.reports.length).toBeGreaterThan(
        1000,
      );
    }
    // Asked each time (nothing cached), and none of it counted as the provider failing.
    expect(requests.filter((ip) => ip === entity.value).length - before).toBe(4);
    expect((await repo.circuit('abuseipdb'))?.failures ?? 0).toBe(0);
  });

  it('still caches an ordinary answer', async () => {
    const entity = { type: 'ip' as const, value: '198.51.100.201' };
    await lookups.lookup('abuseipdb', entity, { signal: AbortSignal.timeout(10_000), refresh: false });
    const second = await lookups.lookup('abuseipdb', entity, {
      signal: AbortSignal.timeout(10_000),
      refresh: false,
    });
    expect(second.cached).toBe(true);
  });
});
