import { type AttackTechniqueId, attackTechniques, normaliseAttack } from '../core/attack';
import type { Entity } from '../core/entity';
import type { JsonValue, Verdict } from '../core/vocabulary';
import { arr, type IntelResult, num, obj, result, str, strings, verdictFinding } from './mapping';

/** Mappers of the indicator sources (URLhaus, ThreatFox, OTX, VirusTotal, MISP). */

type Json = Record<string, unknown>;

export function urlhaus(entity: Entity, answer: { body: unknown }): IntelResult {
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

export function threatfox(entity: Entity, answer: { body: unknown }): IntelResult {
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

export function otx(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
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

export function virustotal(entity: Entity, answer: { status: number; body: unknown }): IntelResult {
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

export function misp(entity: Entity, answer: { body: unknown }): IntelResult {
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
