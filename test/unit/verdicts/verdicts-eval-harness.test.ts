import { describe, expect, it } from 'vitest';
import {
  formatTable,
  judge,
  type LabelledName,
  sampleByHash,
  splitOf,
  summarise,
  wilsonInterval,
  withoutOwnershipOf,
} from '../../../bench/verdicts/harness';
import { nameDataOf } from '../../../shared/domain/names/name-data';
import { openOfflineIntel } from '../../../shared/platform/offline-intel';
import { localDataDir } from '../../../shared/platform/offline-intel-build';

/** The machinery of `npm run eval:verdicts` (the corpus itself is fetched by the script, not here). */
const offline = openOfflineIntel(localDataDir());
// Loaded once, outside the cases' time limits (the word map is the slow part).
offline.names();

describe('verdict evaluation harness', () => {
  it('splits names deterministically into two halves of about equal size', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `name${i}.example`);
    const first = names.map(splitOf);
    expect(names.map(splitOf)).toEqual(first);
    const tuning = first.filter((s) => s === 'tuning').length;
    expect(tuning).toBeGreaterThan(900);
    expect(tuning).toBeLessThan(1100);
  });

  it('judges each name with the real tool and scoring, and counts rates and verdicts per class', async () => {
    const corpus: LabelledName[] = [
      { domain: 'paypa1-login.com', label: 'crypto_phishing' },
      { domain: 'coinbase-airdrop.xyz', label: 'crypto_phishing' },
      { domain: 'bluebirdcafe.org', label: 'crypto_phishing' },
      { domain: 'googleblog.com', label: 'popular' },
      { domain: 'medicalnewstoday.com', label: 'popular' },
      { domain: '203.0.113.9', label: 'popular' },
    ];
    const judged = await Promise.all(corpus.map((name) => judge(name, offline)));
    expect(judged.map((j) => j.verdict)).toEqual([
      'malicious',
      'suspicious',
      'unknown',
      'unknown',
      'unknown',
      'invalid',
    ]);
    expect(judged[0]!.findings.some((f) => f.startsWith('domain_analysis:confusable_spelling:'))).toBe(true);

    const [phishing, popular] = summarise(judged);
    expect(phishing).toMatchObject({ label: 'crypto_phishing', total: 3, flagged: 2 });
    expect(phishing!.rate).toBeCloseTo(2 / 3);
    expect(popular).toMatchObject({ label: 'popular', total: 2, flagged: 0, rate: 0 });
    expect(popular!.verdicts).toMatchObject({ unknown: 2, invalid: 1 });
    const table = formatTable('Held-out half', [phishing!, popular!]);
    expect(table).toContain('95 % CI (Wilson)');
    expect(table).toContain(
      '| crypto_phishing | 3 | 2 (66.7 % detected) | 20.8 % – 93.9 % | 1 | 1 | 1 | 0 | 0 |',
    );
    expect(table).toContain('| popular | 2 | 0 (0.0 % false positives) | 0.0 % – 65.8 % |');
  });

  it("judges a brand's secondary domain with that domain's ownership hidden, and nothing else", async () => {
    const hidden = nameDataOf(withoutOwnershipOf(offline, 'paypal.de'))!;
    expect(offline.names().ownerOf('paypal.de', 'paypal.de')?.name).toBe('PayPal');
    expect(hidden.ownerOf('paypal.de', 'paypal.de')).toBeUndefined();
    // The brand's other domains stay its own, and other facts still come from the same data.
    expect(hidden.ownerOf('www.paypal.com', 'paypal.com')?.name).toBe('PayPal');
    expect(withoutOwnershipOf(offline, 'paypal.de').mailDomain('cu.cc')).toEqual(offline.mailDomain('cu.cc'));
    const judged = await judge({ domain: 'paypal.de', label: 'brand_secondary' }, offline);
    expect(judged.verdict).toBe('unknown');
  });

  it('gives Wilson 95 % intervals that match the textbook values and stay inside [0, 1]', () => {
    // 0 of 300 (the sample size) still allows up to ~1.3 %; 47 of 300 is 15.7 % in 12.0-20.2 %.
    const none = wilsonInterval(0, 300);
    expect(none.low).toBeCloseTo(0, 12);
    expect(none.high).toBeCloseTo(0.01264, 4);
    const some = wilsonInterval(47, 300);
    expect(some.low).toBeCloseTo(0.1199, 3);
    expect(some.high).toBeCloseTo(0.2021, 3);
    expect(wilsonInterval(10, 10).high).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('samples a large class deterministically by hash, independent of list order, and leaves small ones whole', () => {
    const big: LabelledName[] = Array.from({ length: 500 }, (_, i) => ({
      domain: `phish${i}.example`,
      label: 'crypto_phishing',
    }));
    const small: LabelledName[] = [{ domain: 'uniroma1.it', label: 'university_non_english' }];
    const sample = sampleByHash([...big, ...small], { crypto_phishing: 100, university_non_english: 100 });
    expect(sample.filter((n) => n.label === 'crypto_phishing')).toHaveLength(100);
    expect(sample).toContainEqual(small[0]);
    const reversed = sampleByHash([...small, ...big].reverse(), {
      crypto_phishing: 100,
      university_non_english: 100,
    });
    expect(reversed).toEqual(sample);
    // Not the head of the list: the sample spreads over the whole class.
    const indices = sample
      .filter((n) => n.label === 'crypto_phishing')
      .map((n) => Number(n.domain.slice(5, -8)));
    expect(Math.max(...indices)).toBeGreaterThan(400);
    expect(Math.min(...indices)).toBeLessThan(100);
  });
});
