import { type AttackTechniqueId, attackTechniques, normaliseAttack } from '../core/attack';
import type { Entity } from '../core/entity';
import type { Verdict } from '../core/vocabulary';
import {
  arr,
  type IntelFinding,
  type IntelResult,
  num,
  obj,
  result,
  str,
  strings,
  verdictFinding,
} from './mapping';

/** Mappers of the IP reputation sources (AbuseIPDB, GreyNoise, InternetDB, CrowdSec). */

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

export function abuseipdb(entity: Entity, answer: { body: unknown }): IntelResult {
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

export function greynoise(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
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

export function internetdb(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
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

export function crowdsec(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
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
