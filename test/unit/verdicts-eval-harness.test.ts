import { describe, expect, it } from 'vitest';
import { formatTable, judge, type LabelledName, splitOf, summarise } from '../../bench/verdicts/harness';
import { openOfflineIntel } from '../../shared/platform/offline-intel';
import { localDataDir } from '../../shared/platform/offline-intel-build';

/** The machinery of `npm run eval:verdicts` (the corpus itself is fetched by the script, not here). */
const offline = openOfflineIntel(localDataDir());

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
      { domain: 'paypa1-login.com', label: 'phishing' },
      { domain: 'coinbase-airdrop.xyz', label: 'phishing' },
      { domain: 'bluebirdcafe.org', label: 'phishing' },
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
    expect(phishing).toMatchObject({ label: 'phishing', total: 3, flagged: 2 });
    expect(phishing!.rate).toBeCloseTo(2 / 3);
    expect(popular).toMatchObject({ label: 'popular', total: 2, flagged: 0, rate: 0 });
    expect(popular!.verdicts).toMatchObject({ unknown: 2, invalid: 1 });
    const table = formatTable('Held-out half', [phishing!, popular!]);
    expect(table).toContain('| phishing | 3 | 2 (66.7 % detected) | 1 | 1 | 1 | 0 | 0 |');
    expect(table).toContain('| popular | 2 | 0 (0.0 % false positives) |');
  });
});
