import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import { TOOL_NAMES } from '../../../shared/domain/core/vocabulary';
import { CONNECTOR_NAMES, CONNECTORS } from '../../../shared/domain/intel/connectors';
import { MAPPERS, threatfoxIocMatches } from '../../../shared/domain/intel/mappers';
import { refusalReason } from '../../../shared/domain/investigation/tools/tool-intel';
import { intelFixture } from '../../support/intel-fake-server';

/**
 * Each provider's mapper over fixtures built from its documented example answers: the normalised
 * verdict, the evidence, ATT&CK techniques where the source returns them, and "not found" read as
 * an answer (unknown), never an error.
 */
const ip = { type: 'ip' as const, value: '185.220.101.1' };
const domain = { type: 'domain' as const, value: 'vektorex.com' };
const map = (name: keyof typeof CONNECTORS, fixture: string, status = 200, entity: Entity = ip) =>
  MAPPERS[name](entity, { status, body: intelFixture(fixture) });
const attackIds = (result: ReturnType<typeof map>) =>
  result.findings.flatMap((f) => f.attack ?? []).map((a) => a.id);

describe('intelligence connector mappers', () => {
  it('declares one intel_<name> tool per connector', () => {
    for (const name of CONNECTOR_NAMES) expect(TOOL_NAMES).toContain(`intel_${name}`);
  });

  it('AbuseIPDB: confidence 100 is malicious; report categories 18/22 name Brute Force', () => {
    const result = map('abuseipdb', 'abuseipdb-check.json');
    expect(result.verdict).toBe('malicious');
    expect(result.findings[0]).toMatchObject({
      source_verdict: 'malicious',
      category: 'suspicious_infrastructure',
    });
    expect(result.findings[0]?.evidence).toContain('abuseConfidenceScore: 100');
    expect(attackIds(result)).toEqual(['T1110']);
    expect(result.facts).toMatchObject({ total_reports: 1, country_code: 'CN', categories: [18, 22] });
  });

  it('GreyNoise: RIOT is benign; a 404 "not observed" is an unknown answer', () => {
    expect(map('greynoise', 'greynoise-community.json').verdict).toBe('benign');
    const notFound = map('greynoise', 'greynoise-not-found.json', 404);
    expect(notFound.verdict).toBe('unknown');
    expect(notFound.findings[0]?.score).toBe(0);
    const suspicious = { ip: '192.0.2.9', noise: true, riot: false, classification: 'suspicious' };
    expect(MAPPERS.greynoise(ip, { status: 200, body: suspicious }).verdict).toBe('suspicious');
  });

  it('InternetDB: a tor tag is suspicious and known CVEs are an exposure finding; 404 is no data', () => {
    const result = map('internetdb', 'internetdb-host.json');
    expect(result.verdict).toBe('suspicious');
    expect(result.findings.map((f) => f.finding_id)).toEqual(['verdict:suspicious', 'vulnerable_services']);
    expect(result.facts).toMatchObject({ ports: [22, 80, 443], vulns: ['CVE-2017-15906', 'CVE-2018-15919'] });
    expect(map('internetdb', 'internetdb-not-found.json', 404).verdict).toBe('unknown');
  });

  it('URLhaus: an online malware URL is malicious (url_count as the documented string); no_results is unknown', () => {
    const result = map('urlhaus', 'urlhaus-host.json', 200, domain);
    expect(result.verdict).toBe('malicious');
    expect(result.facts).toMatchObject({ url_count: 110, urls_online: 1 });
    expect(map('urlhaus', 'urlhaus-no-results.json', 200, domain).verdict).toBe('unknown');
  });

  it('ThreatFox: a botnet C2 at confidence 75 is malicious with Application Layer Protocol', () => {
    // The documented search for 139.180.203.104 answers its ip:port IOC 139.180.203.104:443.
    const c2 = { type: 'ip' as const, value: '139.180.203.104' };
    const result = map('threatfox', 'threatfox-search-ioc.json', 200, c2);
    expect(result.verdict).toBe('malicious');
    expect(result.facts).toMatchObject({ malware: ['Cobalt Strike'], max_confidence: 75, iocs: 1 });
    expect(attackIds(result)).toEqual(['T1071']);
    expect(map('threatfox', 'threatfox-no-result.json', 200, c2).verdict).toBe('unknown');
  });

  it('ThreatFox: asks with the documented search (no exact_match) and keeps only this indicator', () => {
    expect(CONNECTORS.threatfox.request(ip).json).toEqual({ query: 'search_ioc', search_term: ip.value });
    // A substring hit on another address is not about this one.
    const prefix = { type: 'ip' as const, value: '139.180.203.10' };
    expect(map('threatfox', 'threatfox-search-ioc.json', 200, prefix).verdict).toBe('unknown');
    expect(threatfoxIocMatches(prefix, '139.180.203.10:8080')).toBe(true);
    expect(threatfoxIocMatches(domain, 'vektorex.com')).toBe(true);
    expect(threatfoxIocMatches(domain, 'http://vektorex.com/gate.php')).toBe(true);
    expect(threatfoxIocMatches(domain, 'vektorex.com.evil.example')).toBe(false);
    expect(threatfoxIocMatches({ type: 'ip', value: '2001:db8::1' }, '[2001:db8::1]:443')).toBe(true);
  });

  it("OTX: pulses make it suspicious and carry the pulses' attack_ids", () => {
    const result = map('otx', 'otx-general.json');
    expect(result.verdict).toBe('suspicious');
    expect(attackIds(result)).toEqual(['T1110', 'T1595']);
    expect(result.facts).toMatchObject({ pulse_count: 2, malware_families: ['Mirai'] });
  });

  it('CrowdSec: reputation malicious with its mitre_techniques; 404 is unknown', () => {
    const result = map('crowdsec', 'crowdsec-smoke.json');
    expect(result.verdict).toBe('malicious');
    expect(result.findings[0]?.attack).toEqual([
      { id: 'T1110', name: 'Brute Force' },
      { id: 'T1595', name: 'Active Scanning' },
    ]);
    expect(map('crowdsec', 'crowdsec-not-found.json', 404).verdict).toBe('unknown');
  });

  it('CrowdSec: an IP with false_positives tags is not malicious, whatever its reputation', () => {
    const smoke = intelFixture('crowdsec-smoke.json') as Record<string, unknown>;
    const publicDns = {
      ...smoke,
      classifications: {
        false_positives: [{ name: 'public_dns', label: 'Public DNS', description: 'IP is a public DNS.' }],
        classifications: [],
      },
    };
    const result = MAPPERS.crowdsec(ip, { status: 200, body: publicDns });
    expect(result.verdict).toBe('benign');
    expect(result.findings[0]?.attack).toBeUndefined();
    expect(result.facts).toMatchObject({ false_positives: ['Public DNS'] });
  });

  it('VirusTotal: 9 engines saying malicious is malicious; NotFoundError is unknown', () => {
    const result = map('virustotal', 'virustotal-ip-address.json');
    expect(result.verdict).toBe('malicious');
    expect(result.facts).toMatchObject({ malicious: 9, suspicious: 2, harmless: 55, country: 'DE' });
    expect(map('virustotal', 'virustotal-not-found.json', 404).verdict).toBe('unknown');
  });

  it('MISP: a to_ids attribute is malicious; the galaxy tag gives the technique', () => {
    const result = map('misp', 'misp-attributes-restsearch.json');
    expect(result.verdict).toBe('malicious');
    expect(attackIds(result)).toEqual(['T1110']);
    expect(result.facts).toMatchObject({ tlp_tags: ['tlp:amber'], for_detection: 1 });
    expect(map('misp', 'misp-empty.json').verdict).toBe('unknown');
  });
});

describe('what may leave the tenant', () => {
  const abuse = CONNECTORS.abuseipdb;
  const misp = CONNECTORS.misp;

  it('refuses above the source maximum TLP: amber for third parties, red for MISP', () => {
    expect(refusalReason(abuse, ip, 'amber', [])).toBeNull();
    expect(refusalReason(abuse, ip, 'amber+strict', [])).toMatch(/TLP:AMBER\+STRICT is above/);
    expect(refusalReason(abuse, ip, 'red', [])).toMatch(/nothing was sent/);
    expect(refusalReason(misp, ip, 'red', [])).toBeNull();
  });

  it('never sends private, reserved or documentation addresses, nor internal names, to third parties', () => {
    expect(refusalReason(abuse, { type: 'ip', value: '10.1.2.3' }, 'clear', [])).toMatch(/private/);
    expect(refusalReason(abuse, { type: 'ip', value: '203.0.113.7' }, 'clear', [])).toMatch(/documentation/);
    const otx = CONNECTORS.otx;
    expect(refusalReason(otx, { type: 'domain', value: 'intranet.example.com' }, 'clear', [])).toMatch(
      /reserved/,
    );
    expect(
      refusalReason(otx, { type: 'domain', value: 'vpn.acme-corp.com' }, 'clear', ['acme-corp.com']),
    ).toMatch(/internal/);
    expect(refusalReason(otx, domain, 'clear', ['acme-corp.com'])).toBeNull();
    // The tenant's own MISP may be asked about internal names.
    expect(
      refusalReason(misp, { type: 'host', value: 'dc01.acme-corp.com' }, 'red', ['acme-corp.com']),
    ).toBeNull();
  });
});
