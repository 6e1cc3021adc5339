import type { Brand } from './brand-catalogue';
import type { NameData } from './name-data';
import { type Segmentation, segment } from './segmentation';

/**
 * How a domain label reads (issue 34's token model): its hyphen tokens and segmented words, the lure,
 * topic, service and corporate words beside a brand. impersonation.ts matches brands against it.
 */

export interface NameReading {
  /** The registrable label in Unicode, without a leading `www`. */
  label: string;
  /** Hyphen/underscore tokens of the label. */
  tokens: string[];
  segmentation: Segmentation;
  /** Lure words in the label and subdomains (tokens and segmented words), each once, in order. */
  lures: string[];
  /** Cryptocurrency words (and giveaway names) the lures are about. */
  topics: string[];
  /** A number next to a cryptocurrency word (`5000eth`): the amount a giveaway promises. */
  amount: boolean;
  /** Lures, plus one for a topic they are about, plus one for an amount: what lure_words scores. */
  lureStrength: number;
}

export function tokensOf(label: string): string[] {
  return label.split(/[-_]+/).filter((t) => t.length > 0);
}

export const ACRONYM = /^[a-z]{2,4}$/;

/**
 * Words a service puts beside its name (issue 34's token model): with an everyday-word brand
 * (amazon, apple, outlook, chase) and nothing else but digits, these are the company a look-alike
 * keeps (`signup-amazon`, `amazon-service93`, `e-apple-online`); the lure words count as well.
 * Plain corporate words (mail, group, business, careers: vocabulary.ts) are not service words: a
 * brand beside them alone is ownership-likely (`brandmail`, `brand-business`).
 */
export const SERVICE_WORDS: ReadonlySet<string> = new Set([
  'service',
  'services',
  'help',
  'online',
  'app',
  'apps',
  'signup',
  'register',
  'portal',
  'web',
  'my',
  'e',
  'id',
  'center',
  'centre',
  'team',
  'mobile',
  'info',
  'webmail',
  'store',
  'shop',
  'pay',
  'check',
  'access',
  'user',
  'users',
  'client',
  'prime',
  'sign',
  'up',
]);

function wordsOf(text: string, data: NameData): { tokens: string[]; segmentation: Segmentation } {
  const tokens = tokensOf(text);
  const pieces: string[] = [];
  const words: string[] = [];
  let explained = 0;
  let length = 0;
  for (const token of tokens) {
    const s = segment(token, data.words, data.byKeyword);
    pieces.push(...s.pieces);
    words.push(...s.words);
    // A short piece between hyphens reads as an acronym (fh-ingolstadt, ac-montpellier), not noise.
    const acronym = tokens.length > 1 && ACRONYM.test(token);
    explained += (acronym ? 1 : s.explained) * [...token].length;
    length += [...token].length;
  }
  return { tokens, segmentation: { pieces, words, explained: length === 0 ? 0 : explained / length } };
}

export function readLabel(
  label: string,
  data: NameData,
  subdomainLabels: readonly string[] = [],
): NameReading {
  const bare = label.startsWith('www') && label.length > 6 ? label.replace(/^www[-_]?/, '') : label;
  const { tokens, segmentation } = wordsOf(bare, data);
  // Subdomain words count too (promo.example.com, eth-giveaway.blogspot.com), except the labels
  // ordinary sites use for their own sign-in and help pages.
  const { lures: lureWords, topicLures, topics: topicWords, operationalSubdomains } = data.vocabulary;
  const subWords = subdomainLabels
    .filter((l) => !operationalSubdomains.has(l))
    .flatMap((l) => {
      const read = wordsOf(l, data);
      return [...read.tokens, ...read.segmentation.words];
    });
  const all = [...tokens, ...segmentation.words, ...subWords];
  const topics = [...new Set(all.filter((w) => topicWords.has(w)))];
  const lures = [...new Set(all.filter((w) => lureWords.has(w) || (topics.length > 0 && topicLures.has(w))))];
  const amount =
    topics.length > 0 &&
    [bare, ...subdomainLabels].some((l) => /(?:^|[^0-9])[0-9]{2,}(?:k|m)?(?=[a-z-]|$)/.test(l));
  const found = lures.length + (amount ? 1 : 0);
  return {
    label: bare,
    tokens,
    segmentation,
    lures,
    topics,
    amount,
    lureStrength: found + (found > 0 && topics.length > 0 ? 1 : 0),
  };
}

export function hasServiceWord(reading: NameReading): boolean {
  // Short words (e, my, id, up) only as hyphen tokens: run-together labels are full of them.
  return (
    reading.tokens.some((t) => SERVICE_WORDS.has(t)) ||
    reading.segmentation.words.some((w) => w.length >= 3 && SERVICE_WORDS.has(w))
  );
}

/**
 * What an everyday-word brand's label holds besides the brand: a description when it is only
 * service words, digits and single letters (and at least one of them), else undefined.
 */
export function keptCompany(keyword: string, reading: NameReading, data: NameData): string | undefined {
  const rest = restOf(keyword, reading);
  if (rest.length === 0) return undefined;
  const pieces = rest.flatMap((p) =>
    SERVICE_WORDS.has(p) || /^[0-9]+$/.test(p) ? [p] : segmentRest(p, data),
  );
  const ok = pieces.every(
    (p) => SERVICE_WORDS.has(p) || data.vocabulary.lures.has(p) || /^[0-9]+$/.test(p) || p.length === 1,
  );
  return ok ? `"${rest.join('", "')}"` : undefined;
}

/** What the label holds besides the brand: its other hyphen tokens, or its other segmented pieces. */
export function restOf(keyword: string, reading: NameReading): string[] {
  return (reading.tokens.length > 1 ? reading.tokens : reading.segmentation.pieces).filter(
    (p) => p !== keyword,
  );
}

/**
 * The brand with nothing but plain corporate words beside it (`paypalmail`, `amazon-business`,
 * `ethereumdev`): the words the brand itself uses for its mail, marketing and careers sites.
 */
export function corporateCompany(
  keyword: string,
  brand: Brand,
  reading: NameReading,
  data: NameData,
): string[] | undefined {
  const rest = restOf(keyword, reading);
  if (rest.length === 0) return undefined;
  // The brand's own other names count as its company too (jpmorgan · chase).
  const own = (p: string) => data.vocabulary.corporateWords.has(p) || brand.keywords.includes(p);
  // The rest as one word first: segmentation splits a corporate compound (user · content).
  const whole = rest.join('');
  if (own(whole)) return [whole];
  const pieces = rest.flatMap((p) => (own(p) ? [p] : segmentRest(p, data)));
  return pieces.every(own) ? pieces : undefined;
}

/** A token beside the brand, split into words and digit runs (service93 → service · 93). */
export function segmentRest(token: string, data: NameData): string[] {
  const runs = token.match(/[0-9]+|[^0-9]+/g) ?? [];
  return runs.flatMap((run) =>
    /^[0-9]+$/.test(run) ? [run] : segment(run, data.words, data.byKeyword).pieces,
  );
}
