import { domainToUnicode } from 'node:url';
import type { AttackTechniqueId } from '../../core/attack';
import type { Entity } from '../../core/entity';
import { describeEntity } from '../../core/entity-normalisation';
import type { Facts, Finding, RelatedEntity, Tool, ToolOutput, ToolRunContext } from '../../core/vocabulary';
import { BRANDS, type Brand, brandOwning, TYPOSQUAT_EXEMPT_WORDS } from '../../data/brands';
import { makeFinding } from '../scoring';
import { builtInTool } from './built-in-tool-declarations';
import { editDistance, scriptsOf, shannonEntropy, skeleton } from './lookalike';
import { mailProviderAnswer } from './mail-provider';

/**
 * domain_analysis: structure of the name (registrable domain, depth, TLD), randomness of the label,
 * and impersonation of well-known brands (homographs, confusable spellings, typosquats,
 * combosquats). Offline and deterministic: no DNS or WHOIS lookups.
 */

/** TLDs over-represented in abuse reports (Spamhaus, Interisle phishing studies) relative to their size. */
export const SUSPICIOUS_TLDS: ReadonlySet<string> = new Set([
  'zip',
  'mov',
  'xyz',
  'top',
  'tk',
  'ml',
  'ga',
  'cf',
  'gq',
  'work',
  'click',
  'link',
  'country',
  'kim',
  'science',
  'party',
  'gdn',
  'loan',
  'men',
  'racing',
  'review',
  'stream',
  'download',
  'win',
  'bid',
  'trade',
  'date',
  'faith',
  'cricket',
  'accountant',
  'rest',
  'cam',
  'su',
  'buzz',
  'icu',
  'cyou',
  'monster',
  'sbs',
  'cfd',
  'quest',
  'lat',
  'bond',
  'support',
]);

/** Words that, next to a brand name, make a login or payment lure (`paypal-secure-login`). */
const LURE_WORDS: ReadonlySet<string> = new Set([
  'login',
  'logon',
  'signin',
  'secure',
  'security',
  'verify',
  'verification',
  'account',
  'accounts',
  'update',
  'support',
  'help',
  'service',
  'services',
  'auth',
  'billing',
  'payment',
  'pay',
  'wallet',
  'confirm',
  'recovery',
  'unlock',
  'alert',
  'id',
  'portal',
  'online',
  'web',
  'mail',
  'track',
  'tracking',
  'delivery',
  'invoice',
  'refund',
  'customer',
  'team',
  'official',
  'alert',
  'alerts',
  'notice',
  'gift',
  'gifts',
  'free',
  'claim',
  'reward',
  'rewards',
  'bonus',
  'prize',
  'nitro',
  'reset',
  'password',
  'sso',
  'mfa',
  'docs',
  'share',
  'drive',
  'file',
  'files',
]);

export const DOMAIN_THRESHOLDS = {
  /** Shannon bits per character of the registrable label above which it looks generated... */
  entropy: 3.5,
  /** ...provided the label is at least this long (short labels cannot show randomness). */
  entropyMinLength: 12,
  /** Labels left of the registrable domain from which nesting counts as deep. */
  deepSubdomain: 4,
  /** Brand keywords at least this long are matched at edit distance 1. */
  editDistance1MinLength: 5,
  /** ...and at least this long at edit distance 2. */
  editDistance2MinLength: 9,
  /** Brand keywords at least this long are also found inside longer labels. */
  substringMinLength: 6,
  /** Brand findings reported per domain, strongest first. */
  maxBrandFindings: 3,
} as const;

type Technique =
  | 'homograph'
  | 'confusable_spelling'
  | 'typosquat'
  | 'combosquat'
  | 'brand_in_label'
  | 'brand_in_subdomain'
  | 'brand_other_tld';

interface BrandMatch {
  brand: Brand;
  keyword: string;
  technique: Technique;
  score: number;
  detail: string;
}

/**
 * ATT&CK techniques a look-alike points to: a look-alike registrable domain is infrastructure the
 * adversary acquired (T1583.001) to phish (T1566). A brand put in front of somebody else's domain
 * does not say who registered that domain, so it only points to phishing.
 */
const LOOKALIKE_ATTACK: Record<Technique, AttackTechniqueId[]> = {
  homograph: ['T1583.001', 'T1566'],
  confusable_spelling: ['T1583.001', 'T1566'],
  typosquat: ['T1583.001', 'T1566'],
  combosquat: ['T1583.001', 'T1566'],
  brand_in_label: ['T1583.001', 'T1566'],
  brand_in_subdomain: ['T1566'],
  brand_other_tld: ['T1583.001', 'T1566'],
};

const TECHNIQUE_TEXT: Record<Technique, { title: string; impact: string }> = {
  homograph: {
    title: 'Homograph of',
    impact: 'uses foreign letters that look identical to the real name, a classic phishing trick',
  },
  confusable_spelling: {
    title: 'Look-alike spelling of',
    impact: 'swaps characters for look-alikes (such as 1 for l) to pass as the real name',
  },
  typosquat: {
    title: 'Typosquat of',
    impact: 'is a misspelling of the real name, registered to catch mistyped visits or fool readers',
  },
  combosquat: {
    title: 'Brand name combined with a lure word:',
    impact: 'combines the brand name with words like "login" or "secure", typical of phishing sites',
  },
  brand_in_label: {
    title: 'Brand name inside an unrelated domain:',
    impact: 'contains the brand name without belonging to the brand',
  },
  brand_in_subdomain: {
    title: 'Brand name used as a subdomain of an unrelated domain:',
    impact: "puts the brand name in front of someone else's address to look official",
  },
  brand_other_tld: {
    title: 'Brand name under a TLD the brand is not known to use:',
    impact:
      'uses the brand name under an ending the brand is not known to use (it may still be a legitimate country site)',
  },
};

function tokens(label: string): string[] {
  return label.split(/[-_]+/).filter((t) => t.length > 0);
}

const isAscii = (text: string): boolean => /^[\x20-\x7e]*$/.test(text);

/** The best way `label` (the registrable label, in Unicode) imitates `keyword`, if it does. */
function matchLabel(label: string, brand: Brand, keyword: string): BrandMatch | undefined {
  const commonWord = brand.commonWords?.includes(keyword) ?? false;
  const keywordSkeleton = skeleton(keyword);
  const match = (technique: Technique, score: number, detail: string): BrandMatch => ({
    brand,
    keyword,
    technique,
    score,
    detail,
  });
  const imitation = (candidate: string, where: string): BrandMatch | undefined => {
    if (candidate === keyword || skeleton(candidate) !== keywordSkeleton) return undefined;
    return isAscii(candidate)
      ? match('confusable_spelling', 75, `${where} "${candidate}" reads like "${keyword}"`)
      : match('homograph', 90, `${where} "${candidate}" renders like "${keyword}"`);
  };
  const typo = (candidate: string, where: string, score1: number): BrandMatch | undefined => {
    if (commonWord || keyword.length < DOMAIN_THRESHOLDS.editDistance1MinLength) return undefined;
    if (TYPOSQUAT_EXEMPT_WORDS.has(candidate)) return undefined;
    const distance = editDistance(skeleton(candidate), keywordSkeleton);
    if (distance === 1)
      return match('typosquat', score1, `${where} "${candidate}" is 1 edit away from "${keyword}"`);
    if (distance === 2 && keyword.length >= DOMAIN_THRESHOLDS.editDistance2MinLength) {
      return match('typosquat', score1 - 20, `${where} "${candidate}" is 2 edits away from "${keyword}"`);
    }
    return undefined;
  };

  if (label === keyword) return match('brand_other_tld', 25, `label "${label}" is the brand name`);
  const whole = imitation(label, 'label') ?? typo(label, 'label', 65);
  if (whole) return whole;

  const parts = tokens(label);
  if (parts.length > 1) {
    for (const part of parts) {
      const spoofed = imitation(part, 'token');
      if (spoofed) return spoofed;
      if (part === keyword) {
        const lure = parts.find((p) => p !== part && LURE_WORDS.has(p));
        if (lure) return match('combosquat', 55, `brand token "${part}" next to lure word "${lure}"`);
        if (!commonWord) return match('brand_in_label', 25, `brand token "${part}" in "${label}"`);
        return undefined;
      }
      const typoed = typo(part, 'token', 60);
      if (typoed) return typoed;
    }
  }
  if (
    !commonWord &&
    keyword.length >= DOMAIN_THRESHOLDS.substringMinLength &&
    skeleton(label).includes(keywordSkeleton)
  ) {
    return match('brand_in_label', 35, `"${label}" contains "${keyword}"`);
  }
  return undefined;
}

function matchSubdomain(
  subdomainLabels: readonly string[],
  brand: Brand,
  keyword: string,
): BrandMatch | undefined {
  if (brand.commonWords?.includes(keyword)) return undefined;
  const keywordSkeleton = skeleton(keyword);
  for (const label of subdomainLabels) {
    for (const part of [label, ...tokens(label)]) {
      if (part === keyword || skeleton(part) === keywordSkeleton) {
        return {
          brand,
          keyword,
          technique: 'brand_in_subdomain',
          score: 40,
          detail: `subdomain label "${label}" carries the brand name "${keyword}"`,
        };
      }
    }
  }
  return undefined;
}

/** Brand impersonation matches, one per brand (its strongest), strongest first. */
export function brandMatches(domain: string): BrandMatch[] {
  const description = describeEntity({ type: 'domain', value: domain });
  if (description.type !== 'domain') return [];
  if (brandOwning(description.registrable_domain)) return [];
  const registrableLabel = description.registrable_domain.slice(
    0,
    description.registrable_domain.length - description.public_suffix.length - 1,
  );
  const label = domainToUnicode(registrableLabel) || registrableLabel;
  const subdomainLabels = description.subdomain
    ? description.subdomain.split('.').map((l) => domainToUnicode(l) || l)
    : [];

  const best: BrandMatch[] = [];
  for (const brand of BRANDS) {
    let strongest: BrandMatch | undefined;
    for (const keyword of brand.keywords) {
      for (const candidate of [
        matchLabel(label, brand, keyword),
        matchSubdomain(subdomainLabels, brand, keyword),
      ]) {
        if (candidate && (!strongest || candidate.score > strongest.score)) strongest = candidate;
      }
    }
    if (strongest) best.push(strongest);
  }
  return best.sort((a, b) => b.score - a.score || a.brand.name.localeCompare(b.brand.name));
}

export const domainAnalysis: Tool = {
  ...builtInTool('domain_analysis'),
  async run(entity: Entity, ctx?: ToolRunContext): Promise<ToolOutput> {
    const description = describeEntity(entity);
    if (description.type !== 'domain') throw new Error('domain_analysis needs a domain');
    const tool = 'domain_analysis' as const;
    const { registrable_domain: registrable, public_suffix: suffix, subdomain, unicode } = description;
    const tld = suffix.split('.').at(-1) ?? suffix;
    const label = registrable.slice(0, registrable.length - suffix.length - 1);
    const unicodeLabel = domainToUnicode(label) || label;
    const depth = subdomain ? subdomain.split('.').length : 0;
    const entropy = Math.round(shannonEntropy(unicodeLabel) * 100) / 100;
    const digits = [...label].filter((c) => /[0-9]/.test(c)).length;
    const scripts = [...scriptsOf(unicode.replace(/\./g, ''))].sort();
    const owner = brandOwning(registrable);
    const matches = brandMatches(entity.value);

    const findings: Finding[] = [];
    const related: RelatedEntity[] = [];
    if (registrable !== entity.value) {
      related.push({
        entity: { type: 'domain', value: registrable },
        relationship: 'subdomain_of',
        evidence: [],
      });
    }

    if (owner) {
      findings.push(
        makeFinding({
          tool,
          code: 'known_brand_domain',
          title: `Domain of ${owner.name}`,
          description: `${registrable} is one of ${owner.name}'s own registrable domains; look-alike checks do not apply.`,
          impact: `This address belongs to ${owner.name}.`,
          score: 0,
          category: 'context',
          evidence: [registrable],
        }),
      );
    }

    for (const m of matches.slice(0, DOMAIN_THRESHOLDS.maxBrandFindings)) {
      const text = TECHNIQUE_TEXT[m.technique];
      const brandDomain = m.brand.domains[0]!;
      findings.push(
        makeFinding({
          tool,
          code: `${m.technique}:${brandDomain}`,
          title: `${text.title} ${m.brand.name} (${brandDomain})`,
          description: `${entity.value}${unicode !== entity.value ? ` (${unicode})` : ''}: ${m.detail}. Not one of ${m.brand.name}'s known domains (${m.brand.domains.join(', ')}).`,
          impact: `The website address ${unicode} imitates ${m.brand.name}: it ${text.impact}.`,
          score: m.score,
          category: 'impersonation',
          evidence: [entity.value, unicode, brandDomain].filter((v, i, all) => all.indexOf(v) === i),
          attack: LOOKALIKE_ATTACK[m.technique],
        }),
      );
      related.push({
        entity: { type: 'domain', value: brandDomain },
        relationship: 'impersonates',
        evidence: [],
      });
    }

    const homograph = matches.some((m) => m.technique === 'homograph');
    if (!homograph && scripts.length > 1) {
      findings.push(
        makeFinding({
          tool,
          code: 'mixed_scripts',
          title: `Mixed scripts in one name (${scripts.join(', ')})`,
          description: `${unicode} mixes letters from ${scripts.join(' and ')} scripts, which browsers and readers can mistake for a different name.`,
          impact: 'The address mixes letters from different alphabets, a common way to disguise a fake site.',
          score: 40,
          category: 'impersonation',
          evidence: [entity.value, unicode],
          attack: ['T1583.001'],
        }),
      );
    } else if (!homograph && description.is_idn) {
      findings.push(
        makeFinding({
          tool,
          code: 'internationalised_name',
          title: 'Internationalised domain name (punycode)',
          description: `${entity.value} is the punycode form of ${unicode}. Legitimate for local-language sites; worth a look when the audience is not.`,
          impact: 'The address uses non-English letters.',
          score: 10,
          category: 'anomalous_naming',
          evidence: [entity.value, unicode],
        }),
      );
    }

    if (SUSPICIOUS_TLDS.has(tld)) {
      findings.push(
        makeFinding({
          tool,
          code: 'suspicious_tld',
          title: `Frequently abused TLD .${tld}`,
          description: `.${tld} is over-represented in phishing and malware reports relative to its size.`,
          impact: `The address ends in .${tld}, an ending that criminals use disproportionately often.`,
          score: 20,
          category: 'suspicious_infrastructure',
          evidence: [`.${tld}`],
        }),
      );
    }

    if (
      !owner &&
      [...unicodeLabel].length >= DOMAIN_THRESHOLDS.entropyMinLength &&
      entropy >= DOMAIN_THRESHOLDS.entropy
    ) {
      findings.push(
        makeFinding({
          tool,
          code: 'algorithmic_label',
          title: 'Label looks algorithmically generated',
          description: `"${label}" has ${entropy} bits of entropy per character over ${[...unicodeLabel].length} characters (${digits} digits), typical of domain generation algorithms used by malware for command and control.`,
          impact: 'The name looks randomly generated, a pattern typical of malware infrastructure.',
          score: 35,
          category: 'suspicious_infrastructure',
          evidence: [label, `entropy=${entropy}`],
          attack: ['T1568.002'],
        }),
      );
    }

    if (depth >= DOMAIN_THRESHOLDS.deepSubdomain) {
      findings.push(
        makeFinding({
          tool,
          code: 'deep_subdomain',
          title: `Deeply nested subdomain (${depth} levels)`,
          description: `${entity.value} has ${depth} labels left of ${registrable}; long chains are used to push the real domain out of view in address bars.`,
          impact: 'The address is unusually long and nested, which can hide its real owner from readers.',
          score: 15,
          category: 'anomalous_naming',
          evidence: [subdomain],
        }),
      );
    }

    const mail = mailProviderAnswer(tool, entity.value, 'domain', ctx?.offline);
    findings.push(...(mail?.findings ?? []));

    if (findings.length === 0) {
      findings.push(
        makeFinding({
          tool,
          code: 'no_structural_indicators',
          title: 'No structural or look-alike indicators',
          description: `${entity.value} does not imitate a listed brand, uses an ordinary TLD and an ordinary label.`,
          impact: 'Nothing about the name itself is suspicious.',
          score: 0,
          category: 'context',
        }),
      );
    }

    const facts: Facts = {
      registrable_domain: registrable,
      public_suffix: suffix,
      tld,
      subdomain,
      subdomain_depth: depth,
      unicode,
      is_idn: description.is_idn,
      scripts,
      label,
      label_length: label.length,
      label_entropy: entropy,
      label_digits: digits,
      suspicious_tld: SUSPICIOUS_TLDS.has(tld),
      brand_owner: owner?.name ?? null,
      lookalikes: matches.map((m) => ({
        brand: m.brand.name,
        brand_domain: m.brand.domains[0]!,
        technique: m.technique,
        score: m.score,
        detail: m.detail,
      })),
      ...mail?.facts,
    };
    return { facts, findings, related, ...(mail ? { attributes: mail.attributes } : {}) };
  },
};
