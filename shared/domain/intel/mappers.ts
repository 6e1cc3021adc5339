import {
  type AttackTechnique,
  type AttackTechniqueId,
  attackTechniques,
  normaliseAttack,
} from '../core/attack';
import type { Entity } from '../core/entity';
import type { Facts, FindingCategory, JsonValue, Verdict } from '../core/vocabulary';

/**
 * Pure mappers from each provider's documented answer to the service's vocabulary: one normalised
 * verdict per source (malicious / suspicious / benign / unknown), a finding saying so with the
 * evidence behind it, and compact facts. A documented "not found" maps to `unknown`: it is an
 * answer. Thresholds follow the peers (Cortex maps AbuseIPDB ≥ 75 to malicious, > 0 to suspicious)
 * and are listed per source in docs/intel.md.
 */

export interface IntelFinding {
  finding_id: string;
  title: string;
  description: string;
  impact: string;
  score: number;
  category: FindingCategory;
  evidence: string[];
  source_verdict: Verdict;
  attack?: AttackTechnique[];
}

export interface IntelResult {
  verdict: Verdict;
  findings: IntelFinding[];
  facts: Facts;
}

/** Contribution to the risk score of a source's verdict (before the engine bounds it). */
export const VERDICT_SCORES: Record<Verdict, number> = {
  malicious: 75,
  suspicious: 35,
  benign: 0,
  unknown: 0,
};

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** Numbers, including the numeric strings some providers send (URLhaus `url_count`). */
const num = (value: unknown): number => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
};
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown, max = 20): string[] =>
  arr(value)
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String)
    .slice(0, max);

function verdictFinding(
  source: string,
  title: string,
  entity: Entity,
  verdict: Verdict,
  detail: string,
  evidence: string[],
  attack: AttackTechnique[] = [],
  score = VERDICT_SCORES[verdict],
): IntelFinding {
  const known = verdict === 'malicious' || verdict === 'suspicious';
  return {
    finding_id: `verdict:${verdict}`,
    title: `${title}: ${verdict}${detail ? ` (${detail})` : ''}`,
    description: `${title} says ${entity.value} is ${verdict}${detail ? `: ${detail}` : ''}.`,
    impact: known
      ? `An outside threat-intelligence source (${title}) reports ${entity.value} as ${verdict}.`
      : `${title} has no reports against ${entity.value}.`,
    score,
    category: known ? 'suspicious_infrastructure' : 'context',
    evidence: [`source: ${source}`, `verdict: ${verdict}`, ...evidence.filter(Boolean)],
    source_verdict: verdict,
    ...(attack.length > 0 ? { attack } : {}),
  };
}

function result(verdict: Verdict, facts: Json, finding: IntelFinding, ...more: IntelFinding[]): IntelResult {
  return { verdict, facts: { verdict, ...(facts as Facts) }, findings: [finding, ...more] };
}

// AbuseIPDB report categories (https://www.abuseipdb.com/categories) that name a technique.
const ABUSEIPDB_CATEGORY_ATTACK: Record<number, AttackTechniqueId[]> = {
  4: ['T1498'],
  7: ['T1566'],
  11: ['T1566'],
  14: ['T1595'],
  15: ['T1190'],
  18: ['T1110'],
  21: ['T1190'],
  22: ['T1110'],
};

function abuseipdb(entity: Entity, answer: { body: unknown }): IntelResult {
  const data = obj(obj(answer.body).data);
  const confidence = num(data.abuseConfidenceScore);
  const reports = num(data.totalReports);
  const whitelisted = data.isWhitelisted === true;
  const verdict: Verdict = whitelisted
    ? 'benign'
    : confidence >= 75
      ? 'malicious'
      : confidence > 0
        ? 'suspicious'
        : reports === 0
          ? 'unknown'
          : 'benign';
  const categories = new Set<number>();
  for (const report of arr(data.reports)) for (const c of arr(obj(report).categories)) categories.add(num(c));
  const attack = attackTechniques([...categories].flatMap((c) => ABUSEIPDB_CATEGORY_ATTACK[c] ?? []));
  const score = verdict === 'suspicious' ? Math.max(15, Math.round(confidence * 0.6)) : undefined;
  return result(
    verdict,
    {
      abuse_confidence_score: confidence,
      total_reports: reports,
      distinct_users: num(data.numDistinctUsers),
      last_reported_at: str(data.lastReportedAt) || null,
      is_whitelisted: whitelisted,
      is_tor: data.isTor === true,
      usage_type: str(data.usageType) || null,
      isp: str(data.isp) || null,
      country_code: str(data.countryCode) || null,
      categories: [...categories].sort((a, b) => a - b),
    },
    verdictFinding(
      'abuseipdb',
      'AbuseIPDB',
      entity,
      verdict,
      `confidence ${confidence}%, ${reports} reports`,
      [
        `abuseConfidenceScore: ${confidence}`,
        `totalReports: ${reports}`,
        `numDistinctUsers: ${num(data.numDistinctUsers)}`,
        data.lastReportedAt ? `lastReportedAt: ${str(data.lastReportedAt)}` : '',
        data.isTor === true ? 'isTor: true' : '',
        whitelisted ? 'isWhitelisted: true' : '',
        data.isp ? `isp: ${str(data.isp)}` : '',
      ],
      attack,
      score,
    ),
  );
}

function greynoise(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
  const body = obj(answer.body);
  const classification = str(body.classification);
  const noise = body.noise === true;
  const riot = body.riot === true;
  const verdict: Verdict =
    answer.status === 404
      ? 'unknown'
      : classification === 'malicious'
        ? 'malicious'
        : classification === 'suspicious'
          ? 'suspicious'
          : riot || classification === 'benign'
            ? 'benign'
            : noise
              ? 'suspicious'
              : 'unknown';
  const detail =
    answer.status === 404
      ? 'not observed scanning the internet'
      : riot
        ? `known business service${body.name ? ` ${str(body.name)}` : ''}`
        : noise
          ? `internet scanner${body.name && body.name !== 'unknown' ? ` (${str(body.name)})` : ''}`
          : classification;
  return result(
    verdict,
    {
      noise,
      riot,
      classification: classification || null,
      name: str(body.name) || null,
      last_seen: str(body.last_seen) || null,
      link: str(body.link) || null,
    },
    verdictFinding(
      'greynoise',
      'GreyNoise',
      entity,
      verdict,
      detail,
      [
        `noise: ${noise}`,
        `riot: ${riot}`,
        classification ? `classification: ${classification}` : '',
        body.last_seen ? `last_seen: ${str(body.last_seen)}` : '',
        str(body.link),
      ],
      noise && verdict !== 'benign' ? attackTechniques(['T1595']) : [],
      verdict === 'suspicious' ? 20 : undefined,
    ),
  );
}

const INTERNETDB_MALICIOUS_TAGS = new Set(['c2', 'malware', 'compromised', 'doublepulsar']);
const INTERNETDB_SUSPICIOUS_TAGS = new Set(['scanner', 'tor', 'proxy', 'honeypot']);

function internetdb(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
  const body = answer.status === 404 ? {} : obj(answer.body);
  const tags = strings(body.tags);
  const ports = arr(body.ports).map(num).slice(0, 50);
  const vulns = strings(body.vulns, 50);
  const verdict: Verdict = tags.some((t) => INTERNETDB_MALICIOUS_TAGS.has(t))
    ? 'malicious'
    : tags.some((t) => INTERNETDB_SUSPICIOUS_TAGS.has(t))
      ? 'suspicious'
      : 'unknown';
  const facts = {
    ports,
    hostnames: strings(body.hostnames),
    cpes: strings(body.cpes),
    tags,
    vulns,
  };
  const main = verdictFinding(
    'internetdb',
    'Shodan InternetDB',
    entity,
    verdict,
    answer.status === 404
      ? 'no data'
      : `${ports.length} open port${ports.length === 1 ? '' : 's'}${tags.length ? `, tags ${tags.join(', ')}` : ''}`,
    [ports.length ? `ports: ${ports.join(', ')}` : '', tags.length ? `tags: ${tags.join(', ')}` : ''],
    [],
    verdict === 'suspicious' ? 20 : undefined,
  );
  if (vulns.length === 0) return result(verdict, facts, main);
  const exposure: IntelFinding = {
    finding_id: 'vulnerable_services',
    title: `Shodan InternetDB lists ${vulns.length} known vulnerabilit${vulns.length === 1 ? 'y' : 'ies'}`,
    description: `Services on ${entity.value} match ${vulns.slice(0, 10).join(', ')}${vulns.length > 10 ? '…' : ''}.`,
    impact: `The address exposes services with publicly known weaknesses.`,
    score: 20,
    category: 'network_exposure',
    evidence: vulns.slice(0, 20),
    source_verdict: verdict,
    attack: attackTechniques(['T1190']),
  };
  return result(verdict, facts, main, exposure);
}

function urlhaus(entity: Entity, answer: { body: unknown }): IntelResult {
  const body = obj(answer.body);
  const status = str(body.query_status);
  const urls = arr(body.urls).map(obj);
  const online = urls.filter((u) => str(u.url_status) === 'online').length;
  const count = num(body.url_count) || urls.length;
  const verdict: Verdict =
    status !== 'ok' ? 'unknown' : online > 0 ? 'malicious' : count > 0 ? 'suspicious' : 'unknown';
  const threats = [...new Set(urls.map((u) => str(u.threat)).filter(Boolean))];
  const tags = [...new Set(urls.flatMap((u) => strings(u.tags)))].slice(0, 20);
  const blacklists = obj(body.blacklists);
  return result(
    verdict,
    {
      query_status: status || null,
      url_count: count,
      urls_online: online,
      first_seen: str(body.firstseen) || null,
      threats,
      tags,
      blacklists: Object.fromEntries(
        Object.entries(blacklists).map(([k, v]) => [k, String(v)]),
      ) as Json as JsonValue,
      reference: str(body.urlhaus_reference) || null,
    } as Json,
    verdictFinding(
      'urlhaus',
      'URLhaus',
      entity,
      verdict,
      status === 'ok' ? `${count} malware URLs, ${online} online` : 'not listed',
      [
        ...urls.slice(0, 5).map((u) => `${str(u.url)} (${str(u.url_status)}, ${str(u.threat)})`),
        tags.length ? `tags: ${tags.join(', ')}` : '',
        str(body.urlhaus_reference),
      ],
      verdict === 'unknown'
        ? []
        : normaliseAttack([{ id: 'T1105' }, { id: 'T1608.001', name: 'Stage Capabilities: Upload Malware' }]),
      verdict === 'malicious' ? 80 : verdict === 'suspicious' ? 45 : undefined,
    ),
  );
}

const THREATFOX_ATTACK: Record<string, AttackTechniqueId[]> = {
  botnet_cc: ['T1071'],
  payload_delivery: ['T1105'],
};

/**
 * ThreatFox's search_ioc matches by substring (an IP is stored as `ip:port`, so "1.2.3.4" must find
 * "1.2.3.4:443"), which also finds "1.2.3.40:80" or "evil-1.2.3.4.example"; keep only the IOCs
 * that are the indicator itself, the indicator with a port, or a URL on that host.
 */
export function threatfoxIocMatches(entity: Entity, ioc: string): boolean {
  const value = entity.value.toLowerCase();
  const candidate = ioc.toLowerCase();
  if (candidate === value || candidate.startsWith(`${value}:`) || candidate.startsWith(`[${value}]:`))
    return true;
  try {
    const host = new URL(candidate).hostname.replace(/^\[|\]$/g, '');
    return host === value;
  } catch {
    return false;
  }
}

function threatfox(entity: Entity, answer: { body: unknown }): IntelResult {
  const body = obj(answer.body);
  const status = str(body.query_status);
  const iocs =
    status === 'ok'
      ? arr(body.data)
          .map(obj)
          .filter((i) => threatfoxIocMatches(entity, str(i.ioc)))
      : [];
  const confidence = iocs.reduce((max, i) => Math.max(max, num(i.confidence_level)), 0);
  const verdict: Verdict = iocs.length === 0 ? 'unknown' : confidence >= 75 ? 'malicious' : 'suspicious';
  const malware = [...new Set(iocs.map((i) => str(i.malware_printable)).filter(Boolean))];
  const threatTypes = [...new Set(iocs.map((i) => str(i.threat_type)).filter(Boolean))];
  return result(
    verdict,
    {
      query_status: status || null,
      iocs: iocs.length,
      max_confidence: confidence,
      malware,
      threat_types: threatTypes,
      first_seen: str(iocs[0]?.first_seen) || null,
      last_seen: str(iocs[0]?.last_seen) || null,
    },
    verdictFinding(
      'threatfox',
      'ThreatFox',
      entity,
      verdict,
      iocs.length
        ? `${malware.join(', ') || 'malware'} ${threatTypes.join(', ')}, confidence ${confidence}%`
        : 'not listed',
      iocs
        .slice(0, 5)
        .map((i) => `IOC ${str(i.id)}: ${str(i.ioc)} ${str(i.threat_type)} ${str(i.malware_printable)}`),
      attackTechniques(threatTypes.flatMap((t) => THREATFOX_ATTACK[t] ?? [])),
      verdict === 'malicious' ? 80 : verdict === 'suspicious' ? 45 : undefined,
    ),
  );
}

function otx(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
  const body = answer.status === 404 ? {} : obj(answer.body);
  const pulseInfo = obj(body.pulse_info);
  const pulses = arr(pulseInfo.pulses).map(obj);
  const count = num(pulseInfo.count) || pulses.length;
  const allowListed = arr(body.validation).length > 0;
  const verdict: Verdict = allowListed
    ? 'benign'
    : count >= 5
      ? 'malicious'
      : count > 0
        ? 'suspicious'
        : 'unknown';
  const attack = normaliseAttack(
    pulses.flatMap((p) =>
      arr(p.attack_ids).map((a) =>
        typeof a === 'string' ? a : { id: obj(a).id, name: obj(a).name ?? obj(a).display_name },
      ),
    ),
  );
  const families = [
    ...new Set(
      pulses.flatMap((p) =>
        arr(p.malware_families).map((m) => (typeof m === 'string' ? m : str(obj(m).display_name))),
      ),
    ),
  ].filter(Boolean);
  const adversaries = [...new Set(pulses.map((p) => str(p.adversary)).filter(Boolean))];
  return result(
    verdict,
    {
      pulse_count: count,
      pulses: pulses.slice(0, 5).map((p) => str(p.name)),
      malware_families: families.slice(0, 10),
      adversaries: adversaries.slice(0, 10),
      allow_listed: allowListed,
      attack_ids: attack.map((a) => a.id),
    },
    verdictFinding(
      'otx',
      'AlienVault OTX',
      entity,
      verdict,
      allowListed ? 'allow-listed' : `${count} pulse${count === 1 ? '' : 's'}`,
      [
        ...pulses.slice(0, 5).map((p) => `pulse: ${str(p.name)}`),
        families.length ? `malware: ${families.slice(0, 5).join(', ')}` : '',
        adversaries.length ? `adversary: ${adversaries.slice(0, 5).join(', ')}` : '',
      ],
      verdict === 'benign' ? [] : attack,
      verdict === 'malicious' ? 65 : undefined,
    ),
  );
}

function crowdsec(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
  const body = answer.status === 404 ? {} : obj(answer.body);
  const reputation = str(body.reputation);
  const falsePositives = arr(obj(body.classifications).false_positives).map(
    (c) => str(obj(c).label) || str(obj(c).name),
  );
  // CrowdSec: "Any IP with false_positives tags shouldn't be considered as malicious" (CTI format).
  const verdict: Verdict =
    answer.status === 404
      ? 'unknown'
      : falsePositives.length > 0
        ? 'benign'
        : reputation === 'malicious'
          ? 'malicious'
          : reputation === 'suspicious' || reputation === 'known'
            ? 'suspicious'
            : reputation === 'benign' || reputation === 'safe'
              ? 'benign'
              : 'unknown';
  const behaviors = arr(body.behaviors).map((b) => str(obj(b).label) || str(obj(b).name));
  const attack = normaliseAttack(
    arr(body.mitre_techniques).map((m) => ({ id: obj(m).name, name: obj(m).label })),
  );
  const classifications = arr(obj(body.classifications).classifications).map(
    (c) => str(obj(c).label) || str(obj(c).name),
  );
  return result(
    verdict,
    {
      reputation: reputation || null,
      background_noise_score: num(body.background_noise_score),
      behaviors: behaviors.slice(0, 10),
      classifications: classifications.slice(0, 10),
      false_positives: falsePositives.slice(0, 10),
      cves: strings(body.cves),
      total_score: num(obj(obj(body.scores).overall).total),
      attack_ids: attack.map((a) => a.id),
    },
    verdictFinding(
      'crowdsec',
      'CrowdSec CTI',
      entity,
      verdict,
      answer.status === 404
        ? 'not found'
        : falsePositives.length > 0
          ? `known false positive: ${falsePositives.slice(0, 3).join(', ')}`
          : `reputation ${reputation}${behaviors.length ? `, ${behaviors.slice(0, 3).join(', ')}` : ''}`,
      [
        reputation ? `reputation: ${reputation}` : '',
        falsePositives.length ? `false_positives: ${falsePositives.slice(0, 5).join(', ')}` : '',
        behaviors.length ? `behaviors: ${behaviors.slice(0, 5).join(', ')}` : '',
        classifications.length ? `classifications: ${classifications.slice(0, 5).join(', ')}` : '',
      ],
      verdict === 'benign' ? [] : attack,
      reputation === 'known' ? 20 : verdict === 'malicious' ? 80 : undefined,
    ),
  );
}

function virustotal(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
  const attributes = answer.status === 404 ? {} : obj(obj(obj(answer.body).data).attributes);
  const stats = obj(attributes.last_analysis_stats);
  const malicious = num(stats.malicious);
  const suspicious = num(stats.suspicious);
  const harmless = num(stats.harmless);
  const verdict: Verdict =
    malicious >= 3
      ? 'malicious'
      : malicious > 0 || suspicious > 0
        ? 'suspicious'
        : harmless > 0
          ? 'benign'
          : 'unknown';
  return result(
    verdict,
    {
      malicious,
      suspicious,
      harmless,
      undetected: num(stats.undetected),
      reputation: num(attributes.reputation),
      as_owner: str(attributes.as_owner) || null,
      country: str(attributes.country) || null,
    },
    verdictFinding(
      'virustotal',
      'VirusTotal',
      entity,
      verdict,
      answer.status === 404
        ? 'not found'
        : `${malicious} malicious, ${suspicious} suspicious of ${malicious + suspicious + harmless + num(stats.undetected)} engines`,
      [
        `last_analysis_stats: malicious ${malicious}, suspicious ${suspicious}, harmless ${harmless}`,
        attributes.reputation !== undefined ? `reputation: ${num(attributes.reputation)}` : '',
      ],
      [],
      verdict === 'malicious' ? Math.min(85, 60 + malicious) : undefined,
    ),
  );
}

const MISP_TECHNIQUE = /\b(T\d{4}(?:\.\d{3})?)\b/;

function misp(entity: Entity, answer: { body: unknown }): IntelResult {
  const attributes = arr(obj(obj(answer.body).response).Attribute).map(obj);
  const forDetection = attributes.filter((a) => a.to_ids === true || a.to_ids === '1' || a.to_ids === 1);
  const verdict: Verdict =
    forDetection.length > 0 ? 'malicious' : attributes.length > 0 ? 'suspicious' : 'unknown';
  const tags = attributes.flatMap((a) => [
    ...arr(a.Tag).map((t) => str(obj(t).name)),
    ...arr(obj(a.Event).Tag).map((t) => str(obj(t).name)),
  ]);
  const attack = normaliseAttack(
    tags
      .filter((t) => t.startsWith('misp-galaxy:mitre-attack-pattern='))
      .map((t) => {
        const label = t.slice(t.indexOf('=') + 1).replace(/^"|"$/g, '');
        const id = MISP_TECHNIQUE.exec(label)?.[1];
        return { id, name: label.replace(/\s*-\s*T\d{4}(\.\d{3})?\s*$/, '') };
      }),
  );
  const events = [
    ...new Map(attributes.map((a) => [str(a.event_id), str(obj(a.Event).info)] as const)).entries(),
  ].slice(0, 10);
  return result(
    verdict,
    {
      attributes: attributes.length,
      for_detection: forDetection.length,
      events: events.map(([id, info]) => `${id}: ${info}`),
      tlp_tags: [...new Set(tags.filter((t) => t.startsWith('tlp:')))],
      attack_ids: attack.map((a) => a.id),
    },
    verdictFinding(
      'misp',
      'MISP',
      entity,
      verdict,
      attributes.length
        ? `${attributes.length} attribute${attributes.length === 1 ? '' : 's'} in ${events.length} event${events.length === 1 ? '' : 's'}${forDetection.length ? ', flagged for detection' : ''}`
        : 'not in MISP',
      events.map(([id, info]) => `event ${id}: ${info}`),
      attack,
      verdict === 'malicious' ? 80 : verdict === 'suspicious' ? 30 : undefined,
    ),
  );
}

export const MAPPERS = {
  abuseipdb,
  greynoise,
  internetdb,
  urlhaus,
  threatfox,
  otx,
  crowdsec,
  virustotal,
  misp,
} as const;
