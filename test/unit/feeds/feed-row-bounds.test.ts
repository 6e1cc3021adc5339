import { describe, expect, it } from 'vitest';
import type { FeedsPort } from '../../../shared/domain/core/vocabulary';
import { compileFeedSet, loadFeedSet } from '../../../shared/domain/feeds/compiled-set';
import { parseIpLines, parseSpamhausDrop, parseThreatFox } from '../../../shared/domain/feeds/parsers';
import { runToolByName } from '../../../shared/domain/investigation';
import { memoryData, NOW } from '../investigations/investigation-test-data';

const bytes = (text: string) => new TextEncoder().encode(text);
const values = (parsed: { indicators: { value: string }[] }) => parsed.indicators.map((i) => i.value);

/** issue 36, item 1: one feed row must not condemn the internet. */
describe('feed rows wider than a bound or naming a public suffix', () => {
  it('rejects IPv4 networks wider than /8 and IPv6 wider than /32, and counts them', () => {
    const drop = parseSpamhausDrop(
      bytes(
        [
          '{"cidr":"0.0.0.0/0","sblid":"SBL1"}',
          '{"cidr":"::/0","sblid":"SBL2"}',
          '{"cidr":"10.0.0.0/7","sblid":"SBL3"}',
          '{"cidr":"2001:db8::/31","sblid":"SBL4"}',
          '{"cidr":"11.0.0.0/8","sblid":"SBL5"}',
          '{"cidr":"2001:db8::/32","sblid":"SBL6"}',
          '{"cidr":"198.51.100.0/24","sblid":"SBL7"}',
        ].join('\n'),
      ),
    );
    expect(values(drop)).toEqual(['11.0.0.0/8', '2001:db8:0:0:0:0:0:0/32', '198.51.100.0/24']);
    expect(drop.rejected).toBe(4);
    const lines = parseIpLines(bytes('0.0.0.0/0\n::/0\n203.0.113.0/24\n'));
    expect(values(lines)).toEqual(['203.0.113.0/24']);
    expect(lines.rejected).toBe(2);
  });

  it('rejects domain rows that are public suffixes, ICANN and private section', () => {
    const csv = ['github.io', 's3.amazonaws.com', 'blogspot.com', 'co.uk', 'evil.github.io']
      .map(
        (d, i) =>
          `"2024-11-27 10:00:00", "${i}", "${d}", "domain", "botnet_cc", "x", "", "X", "", "75", "", "", "0", "r"`,
      )
      .join('\n');
    const parsed = parseThreatFox(bytes(csv));
    expect(values(parsed)).toEqual(['evil.github.io']);
    expect(parsed.rejected).toBe(4);
  });

  it('a listed domain never matches through a public suffix parent (a set compiled before the rule)', async () => {
    const set = loadFeedSet(
      compileFeedSet(
        'THREATFOX',
        {
          indicators: [
            { via: 'domain', value: 'github.io', details: { threat: 'botnet_cc' } },
            { via: 'domain', value: 'bad.example.com', details: { threat: 'botnet_cc' } },
          ],
          rejected: 0,
          skipped: 0,
        },
        NOW,
      ).body,
    );
    const feeds: FeedsPort = {
      load: async () => ({
        feeds: [{ name: 'THREATFOX', set, last_refreshed_at: NOW.toISOString() }],
        unavailable: [],
      }),
    };
    const run = (value: string) =>
      runToolByName('feeds', { type: 'domain', value }, { data: memoryData(), now: () => NOW, feeds });
    expect((await run('someone.github.io')).output!.findings).toEqual([]);
    expect((await run('www.bad.example.com')).output!.findings.map((f) => f.finding_id)).toEqual([
      'feeds:listed_threatfox',
    ]);
  });
});
