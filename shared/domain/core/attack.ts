/**
 * A small curated table of MITRE ATT&CK® (Enterprise) techniques: the ones the service's own
 * heuristics tag findings with, and the ones threat-intelligence sources commonly return (brute
 * force, scanning, exploitation, phishing, command and control...). IDs and names are MITRE's; a
 * sub-technique's name is written "Parent: Sub-technique" as ATT&CK's own matrices show it.
 * No npm package ships the ATT&CK data offline, so the table is kept by hand: when a source returns
 * a technique ID that is not listed here, it keeps the name the source gave.
 *
 * MITRE's terms of use require this notice in any copy:
 *
 *   The MITRE Corporation (MITRE) hereby grants you a non-exclusive, royalty-free license to use
 *   ATT&CK® for research, development, and commercial purposes. Any copy you make for such purposes
 *   is authorized provided that you reproduce MITRE's copyright designation and this license in any
 *   such copy.
 *   © 2015-2026 The MITRE Corporation. This work is reproduced and distributed with the permission
 *   of The MITRE Corporation.
 *
 * MITRE ATT&CK and ATT&CK are registered trademarks of The MITRE Corporation.
 */

export const ATTACK_NOTICE =
  '© 2015-2026 The MITRE Corporation. This work is reproduced and distributed with the permission of The MITRE Corporation. MITRE ATT&CK® and ATT&CK® are registered trademarks of The MITRE Corporation.';

export const ATTACK_TECHNIQUES = {
  T1003: 'OS Credential Dumping',
  'T1003.006': 'OS Credential Dumping: DCSync',
  T1021: 'Remote Services',
  'T1021.001': 'Remote Services: Remote Desktop Protocol',
  'T1021.004': 'Remote Services: SSH',
  T1046: 'Network Service Discovery',
  T1059: 'Command and Scripting Interpreter',
  T1071: 'Application Layer Protocol',
  'T1071.001': 'Application Layer Protocol: Web Protocols',
  'T1071.004': 'Application Layer Protocol: DNS',
  T1078: 'Valid Accounts',
  'T1078.001': 'Valid Accounts: Default Accounts',
  'T1078.002': 'Valid Accounts: Domain Accounts',
  'T1078.003': 'Valid Accounts: Local Accounts',
  'T1078.004': 'Valid Accounts: Cloud Accounts',
  T1090: 'Proxy',
  'T1090.003': 'Proxy: Multi-hop Proxy',
  T1105: 'Ingress Tool Transfer',
  T1110: 'Brute Force',
  'T1110.001': 'Brute Force: Password Guessing',
  'T1110.003': 'Brute Force: Password Spraying',
  'T1110.004': 'Brute Force: Credential Stuffing',
  T1133: 'External Remote Services',
  T1189: 'Drive-by Compromise',
  T1190: 'Exploit Public-Facing Application',
  T1204: 'User Execution',
  'T1204.001': 'User Execution: Malicious Link',
  'T1204.002': 'User Execution: Malicious File',
  T1486: 'Data Encrypted for Impact',
  T1496: 'Resource Hijacking',
  T1498: 'Network Denial of Service',
  T1499: 'Endpoint Denial of Service',
  T1558: 'Steal or Forge Kerberos Tickets',
  'T1558.001': 'Steal or Forge Kerberos Tickets: Golden Ticket',
  'T1558.003': 'Steal or Forge Kerberos Tickets: Kerberoasting',
  T1566: 'Phishing',
  'T1566.001': 'Phishing: Spearphishing Attachment',
  'T1566.002': 'Phishing: Spearphishing Link',
  T1568: 'Dynamic Resolution',
  'T1568.002': 'Dynamic Resolution: Domain Generation Algorithms',
  T1571: 'Non-Standard Port',
  T1572: 'Protocol Tunneling',
  T1583: 'Acquire Infrastructure',
  'T1583.001': 'Acquire Infrastructure: Domains',
  'T1583.003': 'Acquire Infrastructure: Virtual Private Server',
  T1584: 'Compromise Infrastructure',
  T1588: 'Obtain Capabilities',
  'T1588.002': 'Obtain Capabilities: Tool',
  T1595: 'Active Scanning',
  'T1595.001': 'Active Scanning: Scanning IP Blocks',
  'T1595.002': 'Active Scanning: Vulnerability Scanning',
  T1598: 'Phishing for Information',
} as const satisfies Record<string, string>;

export type AttackTechniqueId = keyof typeof ATTACK_TECHNIQUES;

/** A technique as findings carry it. */
export interface AttackTechnique {
  id: string;
  name: string;
}

const TECHNIQUE_ID = /^T\d{4}(\.\d{3})?$/;
const MAX_NAME = 120;

export function isAttackTechniqueId(id: string): boolean {
  return TECHNIQUE_ID.test(id);
}

/** The table's name for a technique ID, or undefined when it is not curated here. */
export function attackTechniqueName(id: string): string | undefined {
  return (ATTACK_TECHNIQUES as Record<string, string>)[id];
}

/** Curated techniques by ID, in the order given, without duplicates. */
export function attackTechniques(ids: readonly AttackTechniqueId[]): AttackTechnique[] {
  return normaliseAttack(ids.map((id) => ({ id, name: ATTACK_TECHNIQUES[id] })));
}

/**
 * Cleans techniques from any source (a tool, an intelligence provider): keeps well-formed IDs
 * (`T1234` or `T1234.001`, upper-cased), prefers the curated name, falls back to the given one (or
 * the ID), drops duplicates and caps the list.
 */
export function normaliseAttack(items: readonly unknown[] | undefined, max = 10): AttackTechnique[] {
  const out: AttackTechnique[] = [];
  const seen = new Set<string>();
  for (const item of items ?? []) {
    const raw = typeof item === 'string' ? { id: item } : (item as { id?: unknown; name?: unknown } | null);
    const id = String(raw?.id ?? '')
      .trim()
      .toUpperCase();
    if (!TECHNIQUE_ID.test(id) || seen.has(id)) continue;
    seen.add(id);
    const given = typeof raw?.name === 'string' ? raw.name.trim().slice(0, MAX_NAME) : '';
    out.push({ id, name: attackTechniqueName(id) ?? (given || id) });
    if (out.length >= max) break;
  }
  return out;
}

/** The technique's page on attack.mitre.org (sub-techniques live under their parent). */
export function attackTechniqueUrl(id: string): string {
  const [parent, sub] = id.split('.');
  return `https://attack.mitre.org/techniques/${parent}/${sub ? `${sub}/` : ''}`;
}
