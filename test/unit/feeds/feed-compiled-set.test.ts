import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFeedSet, ipv4ToUint, loadFeedSet } from '../../../shared/domain/feeds/compiled-set';
import type { FeedIndicator } from '../../../shared/domain/feeds/indicators';
import { parseSpamhausDrop, parseUrlhausCsv } from '../../../shared/domain/feeds/parsers';

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, '../../fixtures/feeds', name)));
const at = new Date('2024-11-27T12:00:00Z');

describe('compiled feed sets', () => {
  it('match an address inside a listed IPv4 or IPv6 network and nothing outside it', () => {
    const parsed = parseSpamhausDrop(
      new Uint8Array([...fixture('drop_v4.jsonl'), 10, ...fixture('drop_v6.jsonl')]),
    );
    const { body, count } = compileFeedSet('SPAMHAUS_DROP', parsed, at);
    expect(count).toBe(4);
    const set = loadFeedSet(body);
    expect(set.indicator_count).toBe(4);
    expect(set.matchIp('1.10.31.255').map((m) => [m.listed, m.meta.reference])).toEqual([
      ['1.10.16.0/20', 'SBL256894'],
    ]);
    expect(set.matchIp('1.10.32.0')).toEqual([]);
    expect(set.matchIp('203.0.113.200')[0]?.listed).toBe('203.0.113.128/25');
    expect(set.matchIp('203.0.113.127')).toEqual([]);
    expect(set.matchIp('2001:db8:bad:1::5')[0]?.listed).toBe('2001:db8:bad::/48');
    expect(set.matchIp('2001:db8:bae::1')).toEqual([]);
    expect(set.generated_at).toBe('2024-11-27T10:41:40.000Z'); // the later of the two files
  });

  it('merge a host listed by several URLs: earliest first seen, latest last seen, URLs counted', () => {
    const set = loadFeedSet(
      compileFeedSet('URLHAUS', parseUrlhausCsv(fixture('urlhaus-recent.csv')), at).body,
    );
    const host = set.matchHost('malware-host.example.com');
    expect(host?.meta).toMatchObject({
      via: 'url_host',
      urls: 2,
      first_seen: '2024-11-26T22:41:00.000Z',
      last_seen: '2024-11-27T09:58:11.000Z',
    });
    expect(set.matchHost('example.com')).toBeUndefined();
    expect(set.matchIp('203.0.113.9')[0]?.meta.via).toBe('url_host');
    expect(set.matchIp('2001:db8::66')[0]?.listed).toBe('2001:db8::66');
  });

  it('finds exactly the listed addresses and networks among random ones (property)', () => {
    const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(ipv4, fc.integer({ min: 16, max: 32 })), { minLength: 1, maxLength: 40 }),
        ipv4,
        (nets, probe) => {
          const indicators: FeedIndicator[] = nets.map(([ip, bits]) => {
            const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
            const start = (ipv4ToUint(ip) & mask) >>> 0;
            const text = [start >>> 24, (start >>> 16) & 255, (start >>> 8) & 255, start & 255].join('.');
            return { via: 'cidr', value: `${text}/${bits}` };
          });
          const set = loadFeedSet(compileFeedSet('CINS', { indicators, rejected: 0, skipped: 0 }, at).body);
          const value = ipv4ToUint(probe);
          const expected = new Set(
            indicators
              .filter((i) => {
                const [net, bits] = i.value.split('/');
                const start = ipv4ToUint(net!);
                return value >= start && value <= start + 2 ** (32 - Number(bits)) - 1;
              })
              .map((i) => i.value.replace(/\/32$/, '')),
          );
          const found = new Set(set.matchIp(probe, 100).map((m) => m.listed));
          expect(found).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuse an object that is not a compiled set', () => {
    expect(() => loadFeedSet(new Uint8Array([1, 2, 3]))).toThrow();
  });
});
