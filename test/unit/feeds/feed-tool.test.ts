import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FeedsPort, LoadedFeed } from '../../../shared/domain/core/vocabulary';
import { compileFeedSet, loadFeedSet } from '../../../shared/domain/feeds/compiled-set';
import type { FeedName } from '../../../shared/domain/feeds/declarations';
import { parseFeed } from '../../../shared/domain/feeds/parsers';
import { FEED_SOURCES } from '../../../shared/domain/feeds/sources';
import { runToolByName, toolsFor } from '../../../shared/domain/investigation';
import { memoryData, NOW } from '../investigations/investigation-test-data';

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, '../../fixtures/feeds', name)));

const FIXTURES: Record<FeedName, string[]> = {
  SPAMHAUS_DROP: ['drop_v4.jsonl', 'drop_v6.jsonl'],
  FEODO: ['feodo-ipblocklist.json'],
  URLHAUS: ['urlhaus-recent.csv'],
  THREATFOX: ['threatfox-recent.csv'],
  OPENPHISH: ['openphish-feed.txt'],
  TOR_EXITS: ['torbulkexitlist'],
  CINS: ['ci-badguys.txt'],
  ET_COMPROMISED: ['compromised-ips.txt'],
  TRANCO: ['top-1m.csv.zip'],
};

function loaded(name: FeedName, refreshedHoursAgo = 1): LoadedFeed {
  const indicators = FIXTURES[name].flatMap(
    (file) => parseFeed(FEED_SOURCES[name].format, fixture(file)).indicators,
  );
  const set = loadFeedSet(compileFeedSet(name, { indicators, rejected: 0, skipped: 0 }, NOW).body);
  return {
    name,
    set,
    last_refreshed_at: new Date(NOW.getTime() - refreshedHoursAgo * 3_600_000).toISOString(),
  };
}

function port(feeds: LoadedFeed[], unavailable: FeedName[] = []): FeedsPort & { loads: number } {
  const p = {
    loads: 0,
    async load() {
      p.loads++;
      return { feeds, unavailable };
    },
  };
  return p;
}

const all = () => (Object.keys(FIXTURES) as FeedName[]).map((name) => loaded(name));
const run = (type: 'ip' | 'domain', value: string, feeds: FeedsPort) =>
  runToolByName('feeds', { type, value }, { data: memoryData(), now: () => NOW, feeds });

describe('the feeds tool', () => {
  it('names each feed listing an IP, with its meaning, first/last seen, ATT&CK and source', async () => {
    const call = await run('ip', '198.51.100.23', port(all()));
    expect(call.status).toBe('succeeded');
    const byId = Object.fromEntries(call.output!.findings.map((f) => [f.finding_id, f]));
    expect(Object.keys(byId).sort()).toEqual(['feeds:listed_feodo', 'feeds:listed_spamhaus_drop']);
    const feodo = byId['feeds:listed_feodo']!;
    expect(feodo.title).toContain('botnet command-and-control server');
    expect(feodo.score).toBe(85);
    expect(feodo.evidence_source).toBe('feed:FEODO');
    expect(feodo.description).toContain('first seen 2024-11-20');
    expect(feodo.evidence.join(' ')).toContain('malware QakBot');
    expect(feodo.attack?.map((a) => a.id)).toEqual(['T1071', 'T1071.001']);
    expect(byId['feeds:listed_spamhaus_drop']!.evidence.join(' ')).toContain('198.51.100.0/24');
    expect(call.output!.facts.feeds_checked).toContain('TOR_EXITS');
  });

  it('an IP no feed lists gives no finding', async () => {
    const call = await run('ip', '192.0.2.250', port(all()));
    expect(call.output!.findings).toEqual([]);
    expect(call.output!.facts.matches).toEqual([]);
  });

  it('a listed domain covers its subdomains; a URL host covers only itself', async () => {
    const sub = await run('domain', 'a.evil-c2.example.org', port(all()));
    const finding = sub.output!.findings.find((f) => f.finding_id === 'feeds:listed_threatfox')!;
    expect(finding.title).toContain('botnet command-and-control server');
    expect(finding.score).toBe(Math.round(80 * 0.6));
    expect(finding.description).toContain('Only a parent domain');
    const harm = (call: Awaited<ReturnType<typeof run>>) => call.output!.findings.filter((f) => !f.benign);
    const urlSub = await run('domain', 'x.login-micros0ft.example.com', port(all()));
    expect(harm(urlSub)).toEqual([]);
    const urlHost = await run('domain', 'login-micros0ft.example.com', port(all()));
    expect(harm(urlHost).map((f) => [f.finding_id, f.score, f.category])).toEqual([
      ['feeds:listed_openphish', 70, 'impersonation'],
    ]);
  });

  it('TRANCO popularity is a benign finding with score 0, on the name or its registrable domain', async () => {
    const call = await run('domain', 'mail.google.com', port(all()));
    const tranco = call.output!.findings.find((f) => f.finding_id === 'feeds:popular_tranco')!;
    expect(tranco).toMatchObject({ score: 0, benign: true, evidence_source: 'feed:TRANCO' });
    expect(tranco.title).toContain('rank 1');
    expect(call.output!.attributes).toEqual({ tranco_rank: 1 });
    // A private suffix (github.io) is not the registrable domain of its users' sites.
    const pages = await run('domain', 'someone.github.io', port(all()));
    expect(pages.output!.findings).toEqual([]);
  });

  it('a URL listing on a popular host weighs half, and says why', async () => {
    const call = await run('domain', 'malware-host.example.com', port(all()));
    const urlhaus = call.output!.findings.find((f) => f.finding_id === 'feeds:listed_urlhaus')!;
    expect(urlhaus.score).toBe(35);
    expect(urlhaus.description).toContain('ranked 5 in the Tranco top list');
  });

  it('says when a feed is stale and which enabled feeds have no set', async () => {
    const stale = loaded('TOR_EXITS', 24 * 30);
    const call = await run('ip', '192.0.2.10', port([stale], ['CINS']));
    const finding = call.output!.findings[0]!;
    expect(finding.title).toContain('(stale feed)');
    expect(finding.description).toContain('The feed is stale');
    expect(call.output!.facts).toMatchObject({ stale_feeds: ['TOR_EXITS'], unavailable_feeds: ['CINS'] });
  });

  it('without the feeds port, reports them unavailable and finds nothing', async () => {
    const call = await runToolByName(
      'feeds',
      { type: 'ip', value: '198.51.100.23' },
      { data: memoryData(), now: () => NOW },
    );
    expect(call.status).toBe('succeeded');
    expect(call.output!.facts).toEqual({ feeds: 'unavailable' });
  });

  it('is planned only when the deployment enables a feed, for IPs and domains', () => {
    expect(toolsFor({ type: 'ip', value: '192.0.2.1' })).not.toContain('feeds');
    expect(toolsFor({ type: 'ip', value: '192.0.2.1' }, () => false, true)).toContain('feeds');
    expect(toolsFor({ type: 'domain', value: 'example.com' }, () => false, true)).toContain('feeds');
    expect(toolsFor({ type: 'user', value: 'alice' }, () => false, true)).not.toContain('feeds');
  });
});
