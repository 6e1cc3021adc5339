import type { Entity } from '../../core/entity';
import type {
  CriticalAssetNote,
  Criticality,
  EntityAssessment,
  Finding,
  ToolCall,
  ToolName,
  Verdict,
} from '../../core/vocabulary';

/**
 * Wording rules that keep a report from causing harm (issue 35 items 4 and 5, docs/verdicts.md):
 *
 * - Users and hosts are victims or compromised far more often than hostile: their reports say
 *   `compromised`, `targeted` or `at risk` (the report's `assessment`); "malicious" stays for
 *   infrastructure (IPs, domains). The `verdict` enum is the contract's and does not change.
 * - A critical asset (declared by an admin), or a host named like a domain controller, gets
 *   "coordinate containment with its owner" instead of "isolate" or "disable": isolating a domain
 *   controller is a domain-wide outage.
 * - A registrar takedown is recommended only where registration is known; otherwise conditionally.
 * - What the graph and the incidents said is "as of the run": the live views may differ since.
 */

export type { EntityAssessment } from '../../core/vocabulary';

/** The words of each assessment in a sentence. */
export const ASSESSMENT_WORDS: Record<EntityAssessment, string> = {
  compromised: 'likely compromised',
  targeted: 'targeted',
  at_risk: 'at risk',
};

/**
 * How a user or host with evidence against it is judged: malicious-level evidence → compromised;
 * suspicious with incidents, hostile neighbours or an analyst's confirmation (something aimed at it)
 * → targeted; suspicious on its own signals alone (naming, privilege) → at risk. Undefined for IPs,
 * domains, and users or hosts without evidence against them.
 */
export function entityAssessment(
  entity: Entity,
  verdict: Verdict,
  findings: readonly Pick<Finding, 'score' | 'category'>[],
): EntityAssessment | undefined {
  if (entity.type !== 'user' && entity.type !== 'host') return undefined;
  if (verdict === 'malicious') return 'compromised';
  if (verdict !== 'suspicious') return undefined;
  const aimedAt = findings.some(
    (f) =>
      f.score > 0 &&
      (f.category === 'incident_history' ||
        f.category === 'association' ||
        f.category === 'tenant_knowledge'),
  );
  return aimedAt ? 'targeted' : 'at_risk';
}

/** The critical asset an admin declared, as the prior_investigations tool recorded it. */
export function criticalAssetOf(toolCalls: readonly ToolCall[]): CriticalAssetNote | undefined {
  const call = toolCalls.find((c) => c.name === 'prior_investigations' && c.status === 'succeeded');
  const raw = call?.output?.facts.critical_asset;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { criticality, owner, reason } = raw;
  if ((criticality !== 'critical' && criticality !== 'high') || typeof owner !== 'string') return undefined;
  return { criticality, owner, reason: typeof reason === 'string' ? reason : '' };
}

/**
 * Whom to coordinate containment with, for a host or user that must not be cut off unilaterally:
 * a declared critical asset (its owner), or a host named like a domain controller (no owner
 * recorded). Undefined for anything else.
 */
export interface Stewardship {
  owner?: string;
  criticality: Criticality;
  why: string;
}

export function stewardshipOf(
  entity: Entity,
  asset: CriticalAssetNote | undefined,
  findings: readonly Pick<Finding, 'finding_id'>[],
): Stewardship | undefined {
  if (entity.type !== 'user' && entity.type !== 'host') return undefined;
  if (asset) return { owner: asset.owner, criticality: asset.criticality, why: asset.reason };
  if (findings.some((f) => f.finding_id === 'host_analysis:domain_controller'))
    return { criticality: 'critical', why: 'it is named like a domain controller' };
  return undefined;
}

/** The SOC step for a user or host with an owner to coordinate with, scaled by criticality. */
export function coordinatedContainment(entity: Entity, verdict: Verdict, steward: Stewardship): string {
  const who = steward.owner
    ? `its owner ${steward.owner}`
    : 'its owner (none recorded: add it under Admin > Critical assets)';
  const cut = entity.type === 'host' ? 'isolating it' : 'disabling it';
  const urgency =
    steward.criticality === 'critical'
      ? `${cut} unilaterally risks a business-wide outage`
      : `${cut} has a business cost`;
  const evidence =
    entity.type === 'host'
      ? 'collect triage evidence (processes, autoruns, network connections) without disrupting it'
      : 'review its sign-ins for the last 30 days and agree a credential reset window';
  return verdict === 'malicious'
    ? `Coordinate containment of ${entity.value} with ${who} (${steward.criticality} asset: ${urgency}); ${evidence}, and check for lateral movement from it.`
    : `Coordinate with ${who} before any containment of ${entity.value} (${steward.criticality} asset: ${urgency}); ${evidence}.`;
}

/** The CISO's containment decision for a critical asset: the business owner decides with the team. */
export function coordinatedDecision(steward: Stewardship, noun: string): string {
  return steward.owner
    ? `Ask ${steward.owner}, the owner of this ${steward.criticality}-criticality ${noun}, to agree containment with the security team; cutting it off would disrupt the business.`
    : `Agree containment of this ${noun} with its owner first: it is likely a domain controller, and cutting it off would disrupt the whole company.`;
}

/** Tools whose output is registration evidence for a domain: intel connectors and feeds that list it. */
const REGISTRATION_FACTS = ['registrar', 'registration', 'registered', 'rdap', 'whois'];

/**
 * Whether the report knows the domain is registered: a tool's facts carry RDAP/WHOIS-type
 * registration data, or a feed or intel source lists the domain itself (it was live to be listed).
 */
export function registrationKnown(toolCalls: readonly ToolCall[], findings: readonly Finding[]): boolean {
  const facts = toolCalls.some(
    (c) =>
      c.status === 'succeeded' &&
      c.output &&
      Object.keys(c.output.facts).some((k) => REGISTRATION_FACTS.includes(k.toLowerCase())),
  );
  return (
    facts ||
    findings.some((f) => f.score > 0 && (f.source_tool === 'feeds' || f.source_tool.startsWith('intel_')))
  );
}

/** The SOC takedown step: direct when registration is known, conditional otherwise. */
export function takedownStep(domain: string, known: boolean): string {
  return known
    ? `Request a takedown of ${domain} from its registrar and hosting provider, and warn users who may have received links to it.`
    : `If ${domain} is registered (check RDAP or WHOIS first), request a takedown from its registrar and hosting provider; warn users who may have received links to it either way.`;
}

/** The CISO's takedown decision, with the same condition. */
export function takedownDecision(known: boolean): string {
  return known
    ? 'Authorise a takedown request for the fake site and a warning to staff, and to customers if they are targeted.'
    : 'Authorise a warning to staff (and to customers if they are targeted), and a takedown request if the fake site is confirmed registered.';
}

/** Tools that read the tenant's point-in-time stores: their findings are "as of the run". */
const POINT_IN_TIME_TOOLS: readonly ToolName[] = ['graph_neighbourhood', 'incident_history'];
export const AS_OF_THE_RUN = 'As of the run:';

/**
 * Findings of the graph and the incidents, marked as of the run: `as_of` (the tool call's start)
 * and a description that says so, since the console's live panels show the graph and incidents now.
 */
export function asOfTheRun(findings: readonly Finding[], toolCalls: readonly ToolCall[]): Finding[] {
  const started = new Map(toolCalls.map((c) => [c.name, c.started_at] as const));
  return findings.map((f) => {
    const pointInTime =
      POINT_IN_TIME_TOOLS.includes(f.source_tool) ||
      f.category === 'incident_history' ||
      f.category === 'association';
    const at = started.get(f.source_tool);
    if (!pointInTime || !at || f.description.startsWith(AS_OF_THE_RUN)) return f;
    return { ...f, as_of: at, description: `${AS_OF_THE_RUN} ${f.description}` };
  });
}
