import { isPublicSuffix } from '../core/public-suffix';
import type { Brand } from './brand-catalogue';
import type { NameReading } from './name-reading';

/** Government impersonation (issue 34): government words and a country code the PSL confirms. */

/** A combosquat of a government, in the shape of impersonation.ts's BrandMatch. */
export interface GovernmentMatch {
  brand: Brand;
  keyword: string;
  technique: 'combosquat';
  score: number;
  detail: string;
  lures: string[];
}

/** The words governments put before their country code in their own second-level domains (gov.uk, gouv.fr, gob.mx, govt.nz). */
const GOVERNMENT_WORDS: ReadonlySet<string> = new Set(['gov', 'govt', 'gouv', 'gob']);

/**
 * Is `<word>.<cc>` a government second level of the Public Suffix List (tldts)? A wildcard country
 * (`*.ck`: every second level is a suffix there) says nothing. The US government's own ending is
 * the `gov` TLD, so `gov` + `us` counts too.
 */
function isGovernmentSuffix(word: string, cc: string): boolean {
  if (!GOVERNMENT_WORDS.has(word) || !/^[a-z]{2}$/.test(cc)) return false;
  if (word === 'gov' && cc === 'us') return true;
  return isPublicSuffix(`${word}.${cc}`) && !isPublicSuffix(`not-a-government-word.${cc}`);
}

/**
 * Government impersonation (`gov-uk-tax-refund.com`, `govuk-refund.net`, `gouv-fr-amende.com`):
 * a government word beside a country code its government uses as a Public Suffix List second level,
 * and a lure word, on a registrable domain outside the government endings. A government word
 * without a lure (`gov-uk-news.com`) or without a country (`gov-refund.com`) is not read.
 */
export function governmentMatch(
  reading: NameReading,
  suffix: string,
  /** The combosquat scores of impersonation.ts (one lure word, several). */
  scores: { oneLure: number; lures: number },
): GovernmentMatch | undefined {
  const suffixLabels = suffix.split('.');
  if (suffixLabels.some((l) => GOVERNMENT_WORDS.has(l) || l === 'mil')) return undefined;
  const lures = reading.lures.filter((l) => !GOVERNMENT_WORDS.has(l));
  if (lures.length === 0) return undefined;
  const runTogether = (token: string): string[] => {
    const m = /^(gov|govt|gouv|gob)([a-z]{2})$/.exec(token);
    return m && isGovernmentSuffix(m[1]!, m[2]!) ? [m[1]!, m[2]!] : [token];
  };
  for (const sequence of [reading.tokens.flatMap(runTogether), reading.segmentation.pieces]) {
    for (let i = 0; i + 1 < sequence.length; i++) {
      const [a, b] = [sequence[i]!, sequence[i + 1]!];
      const pair = isGovernmentSuffix(a, b) ? [a, b] : isGovernmentSuffix(b, a) ? [b, a] : undefined;
      if (!pair) continue;
      const [word, cc] = pair as [string, string];
      const governmentDomain = word === 'gov' && cc === 'us' ? 'usa.gov' : `${word}.${cc}`;
      return {
        brand: {
          name: `the ${cc.toUpperCase()} government`,
          sector: 'government',
          domains: [governmentDomain],
          keywords: [word],
          countrySites: false,
        },
        keyword: `${word}-${cc}`,
        technique: 'combosquat',
        score: lures.length > 1 ? scores.lures : scores.oneLure,
        detail: `government words "${word}" and "${cc}" (the government ending ${governmentDomain}) next to lure word${lures.length > 1 ? 's' : ''} "${lures.join('", "')}", outside the government's ending`,
        lures,
      };
    }
  }
  return undefined;
}
