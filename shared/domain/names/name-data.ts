import type { Brand } from './brand-catalogue';

/** Names of the shipped vocabularies (vocabulary.ts, which only the data build imports). */
export type VocabularyName =
  | 'abusedTlds'
  | 'lures'
  | 'topicLures'
  | 'topics'
  | 'operationalSubdomains'
  | 'corporateWords'
  | 'siteBuilderHosts';

/**
 * The data behind the domain-name checks, loaded from the offline data on the first domain the
 * run-tool step analyses (shared/platform/offline-intel.ts): the brand catalogue, Unicode's
 * confusable prototypes (UTS #39) and an English word list with frequency levels (SCOWL).
 */
export interface NameDataInput {
  brands: readonly Brand[];
  /** Character → UTS #39 prototype (confusables.txt), e.g. Cyrillic а → a, 0 → O, m → rn. */
  confusables: Readonly<Record<string, string>>;
  /** English words, lower case, with their SCOWL size level (10 = most common … 60). */
  words: ReadonlyMap<string, number>;
  vocabulary: Readonly<Record<VocabularyName, readonly string[]>>;
}

export interface BrandKeyword {
  brand: Brand;
  keyword: string;
  /** skeleton(keyword). */
  skeleton: string;
  /** The keyword is itself an English word (apple, ledger, booking): matched with more care. */
  commonWord: boolean;
}

export interface NameData {
  brands: readonly Brand[];
  keywords: readonly BrandKeyword[];
  /** Keyword → its entries (one keyword can name two brands: primevideo). */
  byKeyword: ReadonlyMap<string, BrandKeyword>;
  words: ReadonlyMap<string, number>;
  /** Abused TLDs, lure words, crypto topic words... (vocabulary.ts). */
  vocabulary: Readonly<Record<VocabularyName, ReadonlySet<string>>>;
  /** The UTS #39 skeleton, lower-cased with marks removed, for comparing names. */
  skeleton(text: string): string;
  /** The brand owning this domain (the domain or a parent down to the registrable domain). */
  ownerOf(domain: string, registrable: string): Brand | undefined;
}

/** Word levels that count as "an everyday English word" for a brand keyword. */
export const COMMON_WORD_MAX_LEVEL = 50;

export function buildNameData(input: NameDataInput): NameData {
  const prototypes = new Map(Object.entries(input.confusables));
  const skeleton = (text: string): string => {
    // UTS #39: skeleton(X) = NFD(map each character of NFD(X) to its prototype). Domain names are
    // compared case-insensitively and a diacritic does not make a name look different enough, so the
    // result is lower-cased and its combining marks dropped (kráken reads as kraken).
    let mapped = '';
    for (const char of text.normalize('NFD')) mapped += prototypes.get(char) ?? char;
    // One ASCII look-alike UTS #39 leaves out (it maps m → rn but not w → vv): vv reads as w.
    return mapped.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/vv/g, 'w');
  };
  const owner = new Map<string, Brand>();
  const keywords: BrandKeyword[] = [];
  const byKeyword = new Map<string, BrandKeyword>();
  for (const brand of input.brands) {
    for (const domain of brand.domains) if (!owner.has(domain)) owner.set(domain, brand);
    for (const keyword of brand.keywords) {
      if (byKeyword.has(keyword)) continue;
      const level = input.words.get(keyword);
      const entry: BrandKeyword = {
        brand,
        keyword,
        skeleton: skeleton(keyword),
        commonWord: level !== undefined && level <= COMMON_WORD_MAX_LEVEL,
      };
      keywords.push(entry);
      byKeyword.set(keyword, entry);
    }
  }
  return {
    brands: input.brands,
    keywords,
    byKeyword,
    words: input.words,
    vocabulary: {
      abusedTlds: new Set(input.vocabulary.abusedTlds),
      lures: new Set(input.vocabulary.lures),
      topicLures: new Set(input.vocabulary.topicLures),
      topics: new Set(input.vocabulary.topics),
      operationalSubdomains: new Set(input.vocabulary.operationalSubdomains),
      // Absent from data built before the corporate words existed: an empty set, not a crash.
      corporateWords: new Set(input.vocabulary.corporateWords ?? []),
      siteBuilderHosts: new Set(input.vocabulary.siteBuilderHosts ?? []),
    },
    skeleton,
    ownerOf(domain, registrable) {
      const labels = domain.split('.');
      const floor = registrable.split('.').length;
      for (let i = 0; labels.length - i >= floor; i++) {
        const brand = owner.get(labels.slice(i).join('.'));
        if (brand) return brand;
      }
      return undefined;
    },
  };
}

/**
 * Where the tools find the name data: the offline data (shared/platform/offline-intel.ts) provides
 * it beside the OfflineIntel port; domain_analysis runs without it when it is absent.
 */
export interface NameDataSource {
  names(): NameData;
}

export function nameDataOf(offline: object | undefined): NameData | undefined {
  const source = offline as Partial<NameDataSource> | undefined;
  return typeof source?.names === 'function' ? source.names() : undefined;
}
