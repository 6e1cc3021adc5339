/**
 * The brand catalogue (brand-catalogue.tsv beside this file, shipped compressed with the offline data,
 * never in a function's code): each brand's name, sector, owned domains, the keywords a look-alike
 * imitates, and whether it runs country sites under its name. docs/verdicts.md says where it comes
 * from and how to extend it.
 */

export const BRAND_SECTORS = [
  'bank',
  'payment',
  'crypto_exchange',
  'crypto_wallet',
  'crypto_defi',
  'cloud',
  'collaboration',
  'mail',
  'social',
  'retail',
  'delivery',
  'government',
  'telecom',
  'gaming',
  'media',
  'travel',
  'software',
] as const;
export type BrandSector = (typeof BRAND_SECTORS)[number];

export interface Brand {
  name: string;
  sector: BrandSector;
  /** The brand's own domains, main site first: a domain at or under one of them is the brand. */
  domains: readonly string[];
  /** Lower-case ASCII names a look-alike imitates (`paypal`, `myetherwallet`). */
  keywords: readonly string[];
  /** Runs country sites as `<keyword>.<country ending>` (google.de, amazon.co.jp). */
  countrySites: boolean;
}

const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,}$/;
const KEYWORD = /^[a-z0-9]{2,}$/;

/** Parses the catalogue; a malformed line is an error naming the line, so a bad edit fails the build. */
export function parseBrandCatalogue(text: string): Brand[] {
  const brands: Brand[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.startsWith('#')) return;
    const [name, sector, domains, keywords, flags] = line.split('\t');
    const fail = (why: string) => {
      throw new Error(`brand catalogue line ${index + 1}: ${why}`);
    };
    if (!name?.trim()) fail('no name');
    if (!BRAND_SECTORS.includes(sector as BrandSector)) fail(`unknown sector "${sector}"`);
    const owned = (domains ?? '').split(' ').filter(Boolean);
    if (owned.length === 0) fail('no domain');
    for (const d of owned) if (!DOMAIN.test(d)) fail(`bad domain "${d}"`);
    const words = (keywords ?? '').split(' ').filter(Boolean);
    if (words.length === 0) words.push(owned[0]!.split('.')[0]!);
    for (const k of words) if (!KEYWORD.test(k)) fail(`bad keyword "${k}"`);
    const flagList = (flags ?? '').split(' ').filter(Boolean);
    for (const f of flagList) if (f !== 'cc') fail(`unknown flag "${f}"`);
    brands.push({
      name: name!.trim(),
      sector: sector as BrandSector,
      domains: owned,
      keywords: words,
      countrySites: flagList.includes('cc'),
    });
  });
  return brands;
}
