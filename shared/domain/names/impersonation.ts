import type { Brand } from './brand-catalogue';
import { governmentMatch } from './government-impersonation';
import { editDistance } from './lookalike';
import type { BrandKeyword, NameData } from './name-data';
import {
  ACRONYM,
  corporateCompany,
  hasServiceWord,
  keptCompany,
  type NameReading,
  readLabel,
  SERVICE_WORDS,
  segmentRest,
  tokensOf,
} from './name-reading';

export { type NameReading, readLabel } from './name-reading';

/**
 * How a domain name relates to the brand catalogue: owned by a brand, a country site of one, or
 * imitating one (homograph, look-alike spelling, typo, brand with a lure word, brand inside the label,
 * brand in a subdomain, brand alone under another ending). Hyphenated and run-together forms are read
 * the same way: `binance-ether` and `binanceether` are both the brand plus the word "ether".
 */

export type Technique =
  | 'homograph'
  | 'confusable_spelling'
  | 'typosquat'
  | 'combosquat'
  | 'brand_in_label'
  | 'brand_domain_in_subdomain'
  | 'brand_in_subdomain'
  | 'brand_other_tld';

export interface BrandMatch {
  brand: Brand;
  keyword: string;
  technique: Technique;
  score: number;
  detail: string;
  /** Lure words next to the brand (combosquat). */
  lures: string[];
}

export const NAME_THRESHOLDS = {
  /** Keywords at least this long are matched at edit distance 1... */
  editDistance1MinLength: 5,
  /** ...and at least this long at edit distance 2. */
  editDistance2MinLength: 9,
  /** Keywords at least this long are found anywhere inside a label (skeleton substring). */
  substringMinLength: 6,
  /** Keywords at least this long are found as a word of a run-together label (segmentation). */
  wordMinLength: 4,
  /** Brand findings reported per domain, strongest first. */
  maxBrandFindings: 3,
} as const;

export const TECHNIQUE_SCORES = {
  homograph: 90,
  confusable_spelling: 75,
  typosquat: 65,
  typosquatToken: 60,
  typosquat2: 45,
  combosquat: 55,
  combosquatLures: 65,
  brand_in_label: 35,
  brand_domain_in_subdomain: 55,
  brand_in_subdomain: 40,
  brand_other_tld: 30,
  brand_other_tld_common: 20,
} as const;

const isAscii = (text: string): boolean => /^[\x20-\x7e]*$/.test(text);

/** Is the suffix a country-code ending (de, co.jp, com.br)? */
function isCountrySuffix(suffix: string): boolean {
  const last = suffix.split('.').at(-1) ?? '';
  return /^[a-z]{2}$/.test(last);
}

/** Why a name that carries a brand is left unflagged: ownership-likely, not proven (no benign evidence). */
export interface LikelyOwner {
  brand: Brand;
  keyword: string;
  detail: string;
}

interface MatchInput {
  reading: NameReading;
  suffix: string;
  /** Under a private (shared hosting) suffix: anyone can take the brand's name there. */
  sharedHosting: boolean;
  /** Records a brand name in a shape the brand itself uses for its own sites. */
  likelyOwned: (owner: LikelyOwner) => void;
  subdomainLabels: readonly string[];
  data: NameData;
  /** Memoised data.skeleton. */
  skel: (text: string) => string;
}

/**
 * A token that is the brand with digits run onto it (`outlook365`, `dhl8898`, `365outlook`), or a
 * short brand (under four letters, which the segmentation does not read) with a lure or service
 * word run onto it (`dhltrack`), split into the brand and the rest, so the brand is read as a token
 * beside its company. The brand must start or end the token: a short brand inside another
 * word (`adhlander`) is never read. Service words count from three letters (`my`, `e`, `up` run
 * onto anything).
 */
export function brandSplit(token: string, keyword: string, data: NameData): string[] | undefined {
  // A token that is itself a catalogued name (microsoft365, office365) is that brand's, never split.
  if (token === keyword || !token.includes(keyword) || data.byKeyword.has(token)) return undefined;
  const company = (rest: string): string[] | undefined => {
    if (rest.length === 0) return [];
    if (/^[0-9]+$/.test(rest)) return [rest];
    // Longer brands beside words are read by the segmentation already (discord · app is the brand's).
    if (keyword.length >= NAME_THRESHOLDS.wordMinLength) return undefined;
    const pieces = segmentRest(rest, data);
    const ok = pieces.every(
      (p) => /^[0-9]+$/.test(p) || data.vocabulary.lures.has(p) || (SERVICE_WORDS.has(p) && p.length >= 3),
    );
    return ok ? pieces : undefined;
  };
  if (token.startsWith(keyword)) {
    const after = company(token.slice(keyword.length));
    if (after) return [keyword, ...after];
  }
  if (token.endsWith(keyword)) {
    const before = company(token.slice(0, token.length - keyword.length));
    if (before) return [...before, keyword];
  }
  return undefined;
}

/** The reading with the brand split out of the tokens it is run onto (brandSplit). */
function withBrandTokens(reading: NameReading, keyword: string, data: NameData): NameReading {
  let split = false;
  const tokens = reading.tokens.flatMap((t) => {
    const pieces = brandSplit(t, keyword, data);
    if (!pieces) return [t];
    split = true;
    return pieces;
  });
  return split ? { ...reading, tokens } : reading;
}

function matchKeyword(entry: BrandKeyword, input: MatchInput): BrandMatch | undefined {
  const { suffix, subdomainLabels, data, skel, sharedHosting, likelyOwned } = input;
  const { brand, keyword, skeleton: keywordSkeleton, commonWord } = entry;
  const reading = withBrandTokens(input.reading, keyword, data);
  const label = reading.label;
  const length = keyword.length;
  const match = (technique: Technique, score: number, detail: string, lures: string[] = []): BrandMatch => ({
    brand,
    keyword,
    technique,
    score,
    detail,
    lures,
  });
  const isWord = (text: string) => data.words.has(text) || data.byKeyword.has(text);
  const imitation = (candidate: string, where: string): BrandMatch | undefined => {
    if (candidate === keyword || skel(candidate) !== keywordSkeleton) return undefined;
    return isAscii(candidate)
      ? match(
          'confusable_spelling',
          TECHNIQUE_SCORES.confusable_spelling,
          `${where} "${candidate}" reads like "${keyword}"`,
        )
      : match('homograph', TECHNIQUE_SCORES.homograph, `${where} "${candidate}" renders like "${keyword}"`);
  };
  const typo = (candidate: string, where: string, score1: number): BrandMatch | undefined => {
    if (length < NAME_THRESHOLDS.editDistance1MinLength || candidate.length < 4) return undefined;
    // A real word is never a typo of a brand (looking is not booking, finance not binance).
    if (isWord(candidate)) return undefined;
    const maxEdits = length >= 13 ? 3 : 2;
    if (Math.abs([...candidate].length - length) > maxEdits) return undefined;
    const distance = editDistance(skel(candidate), keywordSkeleton);
    // A one-edit neighbour of a short brand is as often an unrelated name (aptus, rhein, auths):
    // it counts only beside a lure or service word.
    const meaningful = length >= 6 || reading.lures.length > 0 || hasServiceWord(reading);
    if (distance === 1 && (!commonWord || length >= 6) && meaningful) {
      return match('typosquat', score1, `${where} "${candidate}" is 1 edit away from "${keyword}"`);
    }
    if (distance > 1 && distance <= maxEdits && length >= NAME_THRESHOLDS.editDistance2MinLength) {
      return match(
        'typosquat',
        TECHNIQUE_SCORES.typosquat2,
        `${where} "${candidate}" is 2 edits away from "${keyword}"`,
      );
    }
    return undefined;
  };
  const withLures = (where: string, whole = true): BrandMatch | undefined => {
    const lures = reading.lures.filter((l) => l !== keyword && !keyword.includes(l));
    if (lures.length > 0) {
      return match(
        'combosquat',
        lures.length > 1 ? TECHNIQUE_SCORES.combosquatLures : TECHNIQUE_SCORES.combosquat,
        `brand "${keyword}" ${where} next to lure word${lures.length > 1 ? 's' : ''} "${lures.join('", "')}"`,
        lures,
      );
    }
    // On a shared hosting platform anyone can publish `brand-docs`: corporate words prove nothing there.
    const corporate = whole && !sharedHosting ? corporateCompany(keyword, brand, reading, data) : undefined;
    if (corporate) {
      likelyOwned({
        brand,
        keyword,
        detail: `brand "${keyword}" ${where} with only the corporate word${corporate.length > 1 ? 's' : ''} "${corporate.join('", "')}"`,
      });
      return undefined;
    }
    if (commonWord) {
      const company = keptCompany(keyword, reading, data);
      if (!company) return undefined;
      return match(
        'combosquat',
        TECHNIQUE_SCORES.combosquat,
        `everyday-word brand "${keyword}" ${where} with ${company}`,
      );
    }
    if (!whole) return undefined;
    return match(
      'brand_in_label',
      TECHNIQUE_SCORES.brand_in_label,
      `brand "${keyword}" ${where} in "${label}"`,
    );
  };

  // The whole label.
  if (label === keyword) {
    if (reading.tokens.length === 1) {
      if (brand.countrySites && isCountrySuffix(suffix)) return undefined;
      // The brand's exact name as a registrable domain under any public ending (brand.de,
      // brand.com.br, brand.network) is as often the brand's own lesser-known site as a squat:
      // precision first, the feeds and connectors judge the squatters.
      if (!sharedHosting) {
        likelyOwned({ brand, keyword, detail: `label "${label}" is the brand name under .${suffix}` });
        return undefined;
      }
      return match(
        'brand_other_tld',
        commonWord || length < 5 ? TECHNIQUE_SCORES.brand_other_tld_common : TECHNIQUE_SCORES.brand_other_tld,
        `label "${label}" is the brand name under .${suffix}`,
      );
    }
  }
  // The label as written, and run together when hyphenated (hitb-tco reads as hitbtco).
  const joined = reading.tokens.join('');
  // The brand's name with hyphens between its words (credit-agricole, deutsche-bank, gls-group) is
  // how brands register their own names as often as squatters do: ownership-likely on the name alone.
  if (
    joined === keyword &&
    reading.tokens.length > 1 &&
    reading.tokens.every((t) => isWord(t) || data.vocabulary.corporateWords.has(t) || ACRONYM.test(t))
  ) {
    likelyOwned({
      brand,
      keyword,
      detail: `label "${label}" is the brand name "${keyword}" with hyphens between its words`,
    });
    return undefined;
  }
  const whole =
    imitation(label, 'label') ??
    typo(label, 'label', TECHNIQUE_SCORES.typosquat) ??
    (joined !== label
      ? joined === keyword
        ? match('typosquat', TECHNIQUE_SCORES.typosquatToken, `label "${label}" is "${keyword}" with hyphens`)
        : (imitation(joined, 'label') ?? typo(joined, 'label', TECHNIQUE_SCORES.typosquatToken))
      : undefined);
  if (whole) return whole;

  // Hyphen tokens, then words of a run-together label.
  let found: BrandMatch | undefined;
  const consider = (candidate: BrandMatch | undefined) => {
    if (candidate && (!found || candidate.score > found.score)) found = candidate;
  };
  if (reading.tokens.length > 1) {
    for (const token of reading.tokens) {
      consider(imitation(token, 'token'));
      if (token === keyword) consider(withLures('as a token'));
      else consider(typo(token, 'token', TECHNIQUE_SCORES.typosquatToken));
    }
    // A brand of several words written with hyphens between them (royal-mail, poste-italiane) beside
    // a lure word: the brand token spelled out. Beside anything else it stays ownership-likely or unread.
    if (reading.lures.length > 0) {
      for (let i = 0; i < reading.tokens.length; i++) {
        for (let n = 2; n <= 3 && i + n <= reading.tokens.length; n++) {
          if (n < reading.tokens.length && reading.tokens.slice(i, i + n).join('') === keyword) {
            consider(withLures('as hyphenated words'));
          }
        }
      }
    }
  }
  if (length >= NAME_THRESHOLDS.wordMinLength && !reading.tokens.includes(keyword)) {
    if (reading.segmentation.words.includes(keyword)) consider(withLures('as a word'));
    else if (
      length >= NAME_THRESHOLDS.substringMinLength &&
      !commonWord &&
      skel(label).includes(keywordSkeleton)
    ) {
      // Inside another word (interaccess, aluno) the brand counts only beside a lure word.
      consider(withLures('inside the label', false));
    }
  }
  if (found) return found;

  // Subdomains: the brand's own domain in front of another one (paypal.com.evil.xyz), or its name.
  for (let i = 0; i < subdomainLabels.length; i++) {
    const part = subdomainLabels[i]!;
    const named = part === keyword || skel(part) === keywordSkeleton;
    if (!named) {
      const typoed =
        length >= 8 ? typo(part, 'subdomain label', TECHNIQUE_SCORES.brand_in_subdomain) : undefined;
      if (typoed) return { ...typoed, technique: 'brand_in_subdomain' };
      continue;
    }
    // What follows: the next subdomain label, or the registrable label (ledger.com1829582.info).
    const next = subdomainLabels[i + 1] ?? label;
    const ownDomain = brand.domains.find((d) => {
      const tld = d.slice(d.indexOf('.') + 1);
      return d.startsWith(`${keyword}.`) && next.startsWith(tld.split('.')[0]!);
    });
    if (ownDomain) {
      return match(
        'brand_domain_in_subdomain',
        TECHNIQUE_SCORES.brand_domain_in_subdomain,
        `"${ownDomain}" is written in front of another domain`,
      );
    }
    if (!commonWord && length >= 4) {
      return match(
        'brand_in_subdomain',
        TECHNIQUE_SCORES.brand_in_subdomain,
        `subdomain label "${part}" carries the brand name "${keyword}"`,
      );
    }
  }
  // The tokens of hyphenated subdomain labels (micros0ft-login.<unrelated>.net): a look-alike
  // spelling of the brand, or the brand itself beside a lure or service word; a run-together label
  // (paypalverify.<unrelated>.com) is read as its words, the way the registrable label is.
  for (const part of subdomainLabels) {
    const hyphenated = tokensOf(part);
    const tokens =
      hyphenated.length > 1 || data.vocabulary.operationalSubdomains.has(part)
        ? hyphenated
        : segmentRest(part, data);
    if (tokens.length < 2) continue;
    const others = tokens.filter((t) => t !== keyword);
    const beside = others.some(
      (t) =>
        (SERVICE_WORDS.has(t) && (hyphenated.length > 1 || t.length >= 3)) || data.vocabulary.lures.has(t),
    );
    for (const token of tokens) {
      if (
        hyphenated.length > 1 &&
        token !== keyword &&
        skel(token) === keywordSkeleton &&
        length >= NAME_THRESHOLDS.wordMinLength
      ) {
        return match(
          'brand_in_subdomain',
          TECHNIQUE_SCORES.typosquatToken,
          `subdomain token "${token}" reads like "${keyword}"`,
        );
      }
      if (token === keyword && beside && length >= NAME_THRESHOLDS.wordMinLength) {
        return match(
          'brand_in_subdomain',
          TECHNIQUE_SCORES.brand_in_subdomain,
          `subdomain label "${part}" carries the brand name "${keyword}" beside "${others.join('", "')}"`,
        );
      }
    }
  }
  return undefined;
}

export interface NameAnalysis {
  reading: NameReading;
  owner?: Brand;
  /** A brand whose name this is under a country ending it uses for country sites. */
  countrySite?: Brand;
  /** A brand named in a shape its own sites use (its exact name elsewhere, or with corporate words). */
  likelyOwner?: LikelyOwner;
  matches: BrandMatch[];
}

/** `label` and `subdomainLabels` in Unicode; `registrable` and `domain` in ASCII (punycode). */
export function analyseName(input: {
  domain: string;
  registrable: string;
  suffix: string;
  label: string;
  subdomainLabels: readonly string[];
  /** The suffix is in the Public Suffix List's private section (a shared hosting platform). */
  sharedHosting?: boolean;
  data: NameData;
}): NameAnalysis {
  const { data } = input;
  const reading = readLabel(input.label, data, input.subdomainLabels);
  const owner = data.ownerOf(input.domain, input.registrable);
  if (owner) return { reading, owner, matches: [] };
  const countrySite = data.keywords.find(
    (k) => k.keyword === reading.label && k.brand.countrySites && isCountrySuffix(input.suffix),
  )?.brand;
  const skeletons = new Map<string, string>();
  const skel = (text: string): string => {
    const known = skeletons.get(text);
    if (known !== undefined) return known;
    const computed = data.skeleton(text);
    skeletons.set(text, computed);
    return computed;
  };
  const best = new Map<Brand, BrandMatch>();
  let likelyOwner: LikelyOwner | undefined;
  for (const entry of data.keywords) {
    const m = matchKeyword(entry, {
      reading,
      suffix: input.suffix,
      sharedHosting: input.sharedHosting ?? false,
      likelyOwned: (owner) => {
        likelyOwner ??= owner;
      },
      subdomainLabels: input.subdomainLabels,
      data,
      skel,
    });
    if (!m) continue;
    const current = best.get(m.brand);
    if (!current || m.score > current.score) best.set(m.brand, m);
  }
  const government = governmentMatch(reading, input.suffix, {
    oneLure: TECHNIQUE_SCORES.combosquat,
    lures: TECHNIQUE_SCORES.combosquatLures,
  });
  if (government) best.set(government.brand, government);
  const matches = [...best.values()].sort(
    (a, b) => b.score - a.score || a.brand.name.localeCompare(b.brand.name),
  );
  return {
    reading,
    ...(countrySite ? { countrySite } : {}),
    ...(likelyOwner && matches.length === 0 ? { likelyOwner } : {}),
    matches,
  };
}
