import { domainToUnicode } from 'node:url';
import type { AttackTechniqueId } from '../../core/attack';
import type { Entity } from '../../core/entity';
import { describeEntity } from '../../core/entity-normalisation';
import { parseHostname } from '../../core/public-suffix';
import type { Facts, Finding, RelatedEntity, Tool, ToolOutput, ToolRunContext } from '../../core/vocabulary';
import { analyseName, NAME_THRESHOLDS, type NameAnalysis, type Technique } from '../../names/impersonation';
import { scriptsOf, shannonEntropy } from '../../names/lookalike';
import { type NameData, nameDataOf } from '../../names/name-data';
import { makeFinding } from '../scoring';
import { builtInTool } from './built-in-tool-declarations';
import { mailProviderAnswer } from './mail-provider';

/**
 * domain_analysis: structure of the name (registrable domain, depth, TLD), randomness of the label,
 * lure words, and impersonation of the brands in the catalogue (homographs, confusable spellings,
 * typosquats, combosquats), read against the offline name data (brand catalogue, Unicode
 * confusables, English word list; shared/domain/names). Offline and deterministic: no DNS or WHOIS.
 * Weak signals (an abused ending, punycode, a lure word, a free hosting platform) are separate
 * findings so that together they add up in the risk score.
 */

export const DOMAIN_THRESHOLDS = {
  /** Shannon bits per character of the registrable label above which it looks generated... */
  entropy: 3.5,
  /** ...provided the label is at least this long (short labels cannot show randomness)... */
  entropyMinLength: 12,
  /** ...and less than this share of it is made of English words. */
  wordsMaxShare: 0.5,
  /** Labels left of the registrable domain from which nesting counts as deep. */
  deepSubdomain: 4,
} as const;

/** Scores of the findings that are not brand impersonation (impersonation.ts has those). */
export const DOMAIN_SCORES = {
  latinLookalike: 50,
  mixedScripts: 40,
  algorithmic: 35,
  abusedTld: 20,
  deepSubdomain: 15,
  /** Punycode under a country ending (a local-language site) and under any other ending. */
  idnCountry: 10,
  idn: 20,
  freeHosting: 10,
  /**
   * Weak signals that co-occur (a lure word, an abused ending, a shared hosting platform, deep
   * nesting: each under 25 alone): one bounded extra finding when two or more are present and no
   * brand finding already speaks, so that lure + hosting platform (24) reaches suspicious (31).
   */
  weakSignalsCombined: 10,
  /** Lure words without a brand, by strength (lures, +1 for a crypto topic, +1 for an amount). */
  lures: [0, 15, 30, 40, 45],
} as const;

const WEAK_SIGNALS: ReadonlySet<string> = new Set(
  ['lure_words', 'suspicious_tld', 'free_hosting_platform', 'deep_subdomain'].map(
    (code) => `domain_analysis:${code}`,
  ),
);

/** The source named on findings that are evidence of a benign name (docs/verdicts.md). */
export const NAME_EVIDENCE_SOURCE = 'offline:domain-analysis';

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
  brand_domain_in_subdomain: ['T1566'],
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
    impact:
      'combines the brand name with words like "login", "verify" or "airdrop", typical of phishing sites',
  },
  brand_in_label: {
    title: 'Brand name inside an unrelated domain:',
    impact: 'contains the brand name without belonging to the brand',
  },
  brand_domain_in_subdomain: {
    title: "Brand's own domain written in front of another domain:",
    impact: "writes the brand's real address at the start of someone else's to look official",
  },
  brand_in_subdomain: {
    title: 'Brand name used as a subdomain of an unrelated domain:',
    impact: "puts the brand name in front of someone else's address to look official",
  },
  brand_other_tld: {
    title: 'Brand name under an ending the brand is not known to use:',
    impact: 'uses the brand name under an ending the brand is not known to use',
  },
};

const tool = 'domain_analysis' as const;

/**
 * The site a name belongs to: its registrable domain, or, on a free site builder the Public Suffix
 * List leaves out (vocabulary.ts SITE_BUILDER_HOSTS: `paypalverify.weebly.com`), the user's site
 * under the builder's domain, judged as a site under a private PSL suffix is.
 */
function hostedSite(
  description: { registrable_domain: string; public_suffix: string; subdomain: string },
  data: NameData | undefined,
): { registrable: string; suffix: string; subdomain: string } {
  const { registrable_domain: registrable, public_suffix: suffix, subdomain } = description;
  if (!subdomain || !data?.vocabulary.siteBuilderHosts.has(registrable)) {
    return { registrable, suffix, subdomain };
  }
  const labels = subdomain.split('.');
  const site = labels.pop()!;
  return { registrable: `${site}.${registrable}`, suffix: registrable, subdomain: labels.join('.') };
}

function brandFindings(entity: Entity, unicode: string, analysis: NameAnalysis): Finding[] {
  return analysis.matches.slice(0, NAME_THRESHOLDS.maxBrandFindings).map((m) => {
    const text = TECHNIQUE_TEXT[m.technique];
    const brandDomain = m.brand.domains[0]!;
    return makeFinding({
      tool,
      code: `${m.technique}:${brandDomain}`,
      title: `${text.title} ${m.brand.name} (${brandDomain})`,
      description: `${entity.value}${unicode !== entity.value ? ` (${unicode})` : ''}: ${m.detail}. Not one of ${m.brand.name}'s known domains (${m.brand.domains.slice(0, 6).join(', ')}${m.brand.domains.length > 6 ? ', …' : ''}).`,
      impact: `The website address ${unicode} imitates ${m.brand.name}: it ${text.impact}.`,
      score: m.score,
      category: 'impersonation',
      evidence: [entity.value, unicode, brandDomain, ...m.lures].filter((v, i, all) => all.indexOf(v) === i),
      attack: LOOKALIKE_ATTACK[m.technique],
    });
  });
}

/** Findings from the name data: ownership, impersonation, look-alike letters, lure words. */
function nameFindings(
  entity: Entity,
  unicode: string,
  analysis: NameAnalysis,
  data: NameData,
  label: string,
): Finding[] {
  const findings: Finding[] = [];
  const { owner, countrySite, likelyOwner, matches, reading } = analysis;
  if (owner) {
    findings.push(
      makeFinding({
        tool,
        code: 'known_brand_domain',
        title: `Domain of ${owner.name}`,
        description: `${entity.value} is under one of ${owner.name}'s own domains in the brand catalogue; look-alike checks do not apply.`,
        impact: `This address belongs to ${owner.name}.`,
        score: 0,
        category: 'context',
        evidence: [entity.value, owner.domains[0]!],
        benign: true,
        evidence_source: NAME_EVIDENCE_SOURCE,
      }),
    );
    return findings;
  }
  if (countrySite && matches.length === 0) {
    findings.push(
      makeFinding({
        tool,
        code: 'brand_country_site',
        title: `Name of ${countrySite.name} under a country ending`,
        description: `${entity.value} is ${countrySite.name}'s name under a country ending; ${countrySite.name} runs country sites this way (${countrySite.domains.slice(0, 3).join(', ')}…). Not proof of ownership.`,
        impact: `The address looks like one of ${countrySite.name}'s country sites.`,
        score: 0,
        category: 'context',
        evidence: [entity.value],
      }),
    );
  }
  if (likelyOwner && !countrySite) {
    const brand = likelyOwner.brand;
    findings.push(
      makeFinding({
        tool,
        code: 'brand_ownership_likely',
        title: `Name in the shape of ${brand.name}'s own sites`,
        description: `${entity.value}: ${likelyOwner.detail}, the way brands name their country, mail and marketing sites; not among ${brand.name}'s known domains (${brand.domains.slice(0, 3).join(', ')}…). Not proof of ownership, and not flagged on the name alone: feeds and intel connectors judge squatters.`,
        impact: `The address is named the way ${brand.name}'s own sites are; nothing in the name alone says it is an imitation.`,
        score: 0,
        category: 'context',
        evidence: [entity.value, brand.domains[0]!],
      }),
    );
  }
  findings.push(...brandFindings(entity, unicode, analysis));

  // Letters of other alphabets that read as a Latin name no brand in the catalogue has.
  const raw = label.normalize('NFD');
  const latinReading = data.skeleton(label);
  const nonLatinLetters = [...raw].some((c) => /\p{L}/u.test(c) && !/\p{Script=Latin}/u.test(c));
  if (
    !matches.some((m) => m.technique === 'homograph') &&
    nonLatinLetters &&
    /^[a-z0-9-]+$/.test(latinReading) &&
    latinReading !== label
  ) {
    findings.push(
      makeFinding({
        tool,
        code: 'latin_lookalike',
        title: `Letters of another alphabet that read as "${latinReading}"`,
        description: `"${label}" is written with letters that Unicode lists as confusable with Latin ones (UTS #39): it reads as "${latinReading}", a name anyone would take for a Latin one.`,
        impact: `The address is written in look-alike foreign letters and reads as "${latinReading}", a common way to disguise a fake site.`,
        score: DOMAIN_SCORES.latinLookalike,
        category: 'impersonation',
        evidence: [entity.value, unicode, latinReading],
        attack: ['T1583.001'],
      }),
    );
  }

  const strength = matches.some((m) => m.technique === 'combosquat') ? 0 : reading.lureStrength;
  const lures = [...reading.lures, ...(reading.amount ? ['(amount)'] : [])];
  if (strength > 0) {
    findings.push(
      makeFinding({
        tool,
        code: 'lure_words',
        title: `Lure word${lures.length > 1 ? 's' : ''} in the name: ${lures.join(', ')}`,
        description: `"${reading.label}" reads as ${reading.segmentation.pieces.join(' · ')}; ${lures.join(', ')} ${lures.length > 1 ? 'are words' : 'is a word'} phishing names use to make the visitor sign in, verify or claim something${reading.topics.length > 0 ? `, here about ${reading.topics.join(', ')}` : ''}.`,
        impact: 'The address uses words typical of phishing pages (sign in, verify, claim, reward).',
        score: DOMAIN_SCORES.lures[Math.min(strength, DOMAIN_SCORES.lures.length - 1)]!,
        category: 'anomalous_naming',
        evidence: [...lures, ...reading.topics],
      }),
    );
  }
  return findings;
}

export const domainAnalysis: Tool = {
  ...builtInTool('domain_analysis'),
  async run(entity: Entity, ctx?: ToolRunContext): Promise<ToolOutput> {
    const description = describeEntity(entity);
    if (description.type !== 'domain') throw new Error('domain_analysis needs a domain');
    const data = nameDataOf(ctx?.offline);
    const { registrable, suffix, subdomain } = hostedSite(description, data);
    const { unicode } = description;
    const tld = suffix.split('.').at(-1) ?? suffix;
    const label = registrable.slice(0, registrable.length - suffix.length - 1);
    const unicodeLabel = domainToUnicode(label) || label;
    const subdomainLabels = subdomain ? subdomain.split('.').map((l) => domainToUnicode(l) || l) : [];
    const depth = subdomain ? subdomain.split('.').length : 0;
    const entropy = Math.round(shannonEntropy(unicodeLabel) * 100) / 100;
    const digits = [...label].filter((c) => /[0-9]/.test(c)).length;
    const scripts = [...scriptsOf(unicode.replace(/\./g, ''))].sort();
    const icannSuffix = parseHostname(entity.value).publicSuffix ?? suffix;
    const freeHosting = suffix !== icannSuffix;

    const analysis = data
      ? analyseName({
          domain: entity.value,
          registrable,
          suffix,
          label: unicodeLabel,
          subdomainLabels,
          sharedHosting: freeHosting,
          data,
        })
      : undefined;
    const owner = analysis?.owner;
    const abusedTld = data?.vocabulary.abusedTlds.has(tld) ?? false;

    const findings: Finding[] = [];
    const related: RelatedEntity[] = [];
    if (registrable !== entity.value) {
      related.push({
        entity: { type: 'domain', value: registrable },
        relationship: 'subdomain_of',
        evidence: [],
      });
    }
    if (analysis && data) {
      findings.push(...nameFindings(entity, unicode, analysis, data, unicodeLabel));
      for (const m of analysis.matches.slice(0, NAME_THRESHOLDS.maxBrandFindings)) {
        related.push({
          entity: { type: 'domain', value: m.brand.domains[0]! },
          relationship: 'impersonates',
          evidence: [],
        });
      }
    } else {
      findings.push(
        makeFinding({
          tool,
          code: 'name_data_unavailable',
          title: 'Brand and word data unavailable',
          description:
            'The offline name data (brand catalogue, Unicode confusables, word list, abused TLDs, lure words) could not be read, so look-alike, lure and TLD checks did not run.',
          impact: 'The check for imitations of well-known brands could not run.',
          score: 0,
          category: 'context',
        }),
      );
    }

    const impersonation = findings.some(
      (f) => f.finding_id.includes(':homograph:') || f.finding_id.endsWith(':latin_lookalike'),
    );
    if (!owner && !impersonation && scripts.length > 1) {
      findings.push(
        makeFinding({
          tool,
          code: 'mixed_scripts',
          title: `Mixed scripts in one name (${scripts.join(', ')})`,
          description: `${unicode} mixes letters from ${scripts.join(' and ')} scripts, which browsers and readers can mistake for a different name.`,
          impact: 'The address mixes letters from different alphabets, a common way to disguise a fake site.',
          score: DOMAIN_SCORES.mixedScripts,
          category: 'impersonation',
          evidence: [entity.value, unicode],
          attack: ['T1583.001'],
        }),
      );
    } else if (!owner && !impersonation && description.is_idn) {
      findings.push(
        makeFinding({
          tool,
          code: 'internationalised_name',
          title: 'Internationalised domain name (punycode)',
          description: `${entity.value} is the punycode form of ${unicode}. Legitimate for local-language sites; worth a look when the audience is not.`,
          impact: 'The address uses non-English letters.',
          score: /^[a-z]{2}$/.test(tld) ? DOMAIN_SCORES.idnCountry : DOMAIN_SCORES.idn,
          category: 'anomalous_naming',
          evidence: [entity.value, unicode],
        }),
      );
    }

    // The mail-provider lists say what this domain is: an abused ending is a prior for names nothing
    // else is known about, so it adds nothing to a known mail provider (cu.cc, mail.tk).
    const mail = mailProviderAnswer(tool, entity.value, 'domain', ctx?.offline);
    const knownMailProvider =
      mail?.facts.free_mail_provider === true || mail?.facts.disposable_mail_provider === true;
    if (!owner && abusedTld && !knownMailProvider) {
      findings.push(
        makeFinding({
          tool,
          code: 'suspicious_tld',
          title: `Frequently abused TLD .${tld}`,
          description: `.${tld} is over-represented in phishing and malware reports relative to its size.`,
          impact: `The address ends in .${tld}, an ending that criminals use disproportionately often.`,
          score: DOMAIN_SCORES.abusedTld,
          category: 'suspicious_infrastructure',
          evidence: [`.${tld}`],
        }),
      );
    }

    if (!owner && freeHosting) {
      findings.push(
        makeFinding({
          tool,
          code: 'free_hosting_platform',
          title: `Site on a shared hosting platform (${suffix})`,
          description: `${suffix} is ${data?.vocabulary.siteBuilderHosts.has(suffix) ? 'a free site builder' : 'in the private section of the Public Suffix List'}: anyone can publish a site under it, so the platform's reputation says nothing about ${registrable}.`,
          impact: `The address is a page anyone could create on ${suffix}.`,
          score: DOMAIN_SCORES.freeHosting,
          category: 'suspicious_infrastructure',
          evidence: [registrable, suffix],
        }),
      );
    }

    const wordShare = analysis?.reading.segmentation.explained ?? 0;
    if (
      !owner &&
      [...unicodeLabel].length >= DOMAIN_THRESHOLDS.entropyMinLength &&
      entropy >= DOMAIN_THRESHOLDS.entropy &&
      wordShare < DOMAIN_THRESHOLDS.wordsMaxShare
    ) {
      findings.push(
        makeFinding({
          tool,
          code: 'algorithmic_label',
          title: 'Label looks algorithmically generated',
          description: `"${label}" has ${entropy} bits of entropy per character over ${[...unicodeLabel].length} characters (${digits} digits) and ${Math.round(wordShare * 100)} % of it is English words, typical of domain generation algorithms used by malware for command and control.`,
          impact: 'The name looks randomly generated, a pattern typical of malware infrastructure.',
          score: DOMAIN_SCORES.algorithmic,
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
          score: DOMAIN_SCORES.deepSubdomain,
          category: 'anomalous_naming',
          evidence: [subdomain],
        }),
      );
    }

    const weak = findings.filter((f) => WEAK_SIGNALS.has(f.finding_id) && f.score > 0 && f.score < 25);
    if (!owner && weak.length >= 2 && !findings.some((f) => f.category === 'impersonation')) {
      findings.push(
        makeFinding({
          tool,
          code: 'weak_signals_combined',
          title: `${weak.length} weak signals together`,
          description: `Each weak alone, together they describe a throwaway phishing page: ${weak.map((f) => f.title).join('; ')}.`,
          impact: 'Several small warning signs appear together in the name.',
          score: DOMAIN_SCORES.weakSignalsCombined,
          category: 'anomalous_naming',
          evidence: weak.map((f) => f.finding_id),
        }),
      );
    }

    findings.push(...(mail?.findings ?? []));

    if (findings.length === 0) {
      findings.push(
        makeFinding({
          tool,
          code: 'no_structural_indicators',
          title: 'No structural or look-alike indicators',
          description: `${entity.value} does not imitate a brand in the catalogue, uses an ordinary TLD and an ordinary label.`,
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
      label_words: analysis?.reading.segmentation.pieces ?? [],
      label_word_share: Math.round(wordShare * 100) / 100,
      lure_words: analysis?.reading.lures ?? [],
      suspicious_tld: abusedTld,
      shared_hosting_platform: freeHosting,
      brand_owner: owner?.name ?? null,
      lookalikes: (analysis?.matches ?? []).map((m) => ({
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
