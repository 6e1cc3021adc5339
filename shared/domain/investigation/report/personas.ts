import { type Entity, entityLabel, parseUser } from '../../core/entity';
import { describeEntity } from '../../core/entity-normalisation';
import type {
  Confidence,
  Coverage,
  Finding,
  FindingCategory,
  PersonaName,
  ReportEntity,
  ToolName,
  Verdict,
} from '../../core/vocabulary';
import { noOutsideSource } from '../coverage-sources';
import { riskLevel } from '../scoring';
import {
  ASSESSMENT_WORDS,
  coordinatedContainment,
  coordinatedDecision,
  type EntityAssessment,
  type Stewardship,
  takedownDecision,
  takedownStep,
} from './asset-wording';
import { plainSubject } from './persona-endings';
import { personaNamed } from './persona-names';

/**
 * Personas decide how the same evidence is told: the SOC Analyst gets indicators and next steps,
 * the CISO business impact and decisions without jargon, the Threat Hunter hypotheses and pivots.
 * They change words only, never the score or the verdict. The spellings accepted for each are
 * persona-names.ts; what each says when a run ends without a report is persona-endings.ts.
 */

/** Everything a persona may say something about. Findings are strongest first. */
export interface ReportView {
  entity: Entity;
  riskScore: number;
  verdict: Verdict;
  /** Absent only in views built by hand (tests, endings); buildReport always passes it. */
  confidence?: Confidence;
  findings: readonly Finding[];
  related: readonly ReportEntity[];
  coverage: Coverage;
  /** A user's or host's judgement in words (asset-wording.ts); undefined for IPs and domains. */
  assessment?: EntityAssessment;
  /** Whom to coordinate containment with (a critical asset's owner, a domain controller's). */
  steward?: Stewardship;
  /** Whether a tool showed the domain is registered (a takedown is then direct, else conditional). */
  registrationKnown?: boolean;
}

export interface Persona {
  name: PersonaName;
  description: string;
  opening(entity: Entity, tools: readonly ToolName[]): string;
  summary(view: ReportView): string;
  recommendations(view: ReportView): string[];
}

/** Each persona's "nothing to do" for a benign verdict: dropped when the verdict overrides evidence (conflicts.ts). */
export const CLOSE_AS_BENIGN = {
  soc: 'No action needed: close as benign and keep this report as evidence.',
  ciso: 'No decision needed.',
  hunter: 'Baseline only: record the entity as known-good context for future hunts.',
} as const;

// ---- Shared reading of the evidence ----

const indicators = (view: ReportView) => view.findings.filter((f) => f.score > 0);
/** Positive evidence of benignness the verdict may rest on (allowlist, feedback, a known owner). */
const benignEvidence = (view: ReportView) => view.findings.filter((f) => f.benign === true);

/**
 * The first line of a summary, which Security Copilot reads first: nothing found is "UNKNOWN · no
 * evidence in N sources", never a clean bill of health; otherwise the verdict, risk and confidence.
 */
function headline(view: ReportView): string {
  const sources = view.coverage.tools_succeeded;
  if (view.verdict === 'unknown' && view.riskScore === 0) {
    // With the coverage list, tools that read the tenant's own data alone are named for what they are.
    if (view.coverage.sources && noOutsideSource(view.coverage.sources)) {
      return sources === 1
        ? `UNKNOWN · no evidence in 1 tenant-internal tool · ${entityLabel(view.entity)}`
        : `UNKNOWN · no evidence in ${sources} tenant-internal tools · ${entityLabel(view.entity)}`;
    }
    return sources === 1
      ? `UNKNOWN · no evidence in 1 source · ${entityLabel(view.entity)}`
      : `UNKNOWN · no evidence in ${sources} sources · ${entityLabel(view.entity)}`;
  }
  return `${verdictWords(view).toUpperCase()} · risk ${view.riskScore}/100 · ${entityLabel(view.entity)}`;
}

/** The verdict in a report's text: a user's or host's assessment, else the verdict itself. */
const verdictWords = (view: ReportView): string =>
  view.assessment ? ASSESSMENT_WORDS[view.assessment] : view.verdict;
const hasCategory = (view: ReportView, category: FindingCategory) =>
  indicators(view).some((f) => f.category === category);
const incomplete = (coverage: Coverage) => [...coverage.tools_failed, ...coverage.tools_timed_out];
const list = (items: readonly string[], max = 5) =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;

function evidenceOf(view: ReportView, category: FindingCategory): string[] {
  return [
    ...new Set(
      indicators(view)
        .filter((f) => f.category === category)
        .flatMap((f) => f.evidence),
    ),
  ];
}

function isInternalIp(view: ReportView): boolean {
  return view.findings.some((f) => f.finding_id === 'ip_classification:internal_address');
}

function impersonatedBrands(view: ReportView): string[] {
  return view.related.filter((r) => r.relationship === 'impersonates').map((r) => r.value);
}

function registrableOf(entity: Entity): string | undefined {
  const description = describeEntity(entity);
  return description.type === 'domain' && description.registrable_domain !== entity.value
    ? description.registrable_domain
    : undefined;
}

// ---- SOC Analyst ----

function containment(view: ReportView): string | undefined {
  const { entity, verdict } = view;
  if (verdict !== 'malicious' && verdict !== 'suspicious') return undefined;
  const hard = verdict === 'malicious';
  if (view.steward) return coordinatedContainment(entity, verdict, view.steward);
  switch (entity.type) {
    case 'ip':
      if (isInternalIp(view)) {
        return `Identify the device that held ${entity.value} (DHCP leases, NAC, asset inventory) and investigate it as a host.`;
      }
      return hard
        ? `Block ${entity.value} on perimeter firewalls and web proxies, then search firewall, proxy and EDR telemetry for connections to it in the last 30 days.`
        : `Watchlist ${entity.value} and search firewall and proxy logs for connections in the last 30 days before deciding on a block.`;
    case 'domain': {
      const registrable = registrableOf(entity);
      return hard
        ? `Block ${entity.value}${registrable ? ` and ${registrable}` : ''} in DNS filtering and the web proxy; search DNS, proxy and mail-gateway logs for lookups, visits and messages linking to it.`
        : `Watchlist ${entity.value} and review DNS and proxy logs for who resolved or visited it.`;
    }
    case 'user':
      return hard
        ? `Disable ${entity.value} or force a password reset, revoke its sessions and refresh tokens, and review its sign-ins for the last 30 days.`
        : `Review recent sign-ins of ${entity.value} (locations, devices, MFA prompts) and confirm the activity with its owner.`;
    case 'host':
      return hard
        ? `Isolate ${entity.value} with EDR, collect triage evidence (processes, autoruns, network connections) and check for lateral movement from it.`
        : `Run an EDR triage on ${entity.value} and review its recent logons and outbound connections.`;
  }
}

/**
 * Each confidence in one literal of its own words: the search index posts a session once for the
 * pair (a phrase) rather than once per word (scripts/search-phrases.ts), as before it was shown.
 */
const CONFIDENCE_WORDS: Record<Confidence, string> = {
  low: 'low confidence',
  medium: 'medium confidence',
  high: 'high confidence',
};

const socAnalyst: Persona = {
  name: 'SOC Analyst',
  description: 'Technical triage: verdict, indicators with evidence, related entities and next steps.',
  opening(entity, tools) {
    return `Investigating ${entityLabel(entity)} with ${tools.length} tools: ${tools.join(', ')}.`;
  },
  summary(view) {
    const found = indicators(view);
    const failed = incomplete(view.coverage);
    const tools = `${view.coverage.tools_succeeded}/${view.coverage.tools_run}`;
    const gaps = failed.length > 0 ? ` (did not complete: ${failed.join(', ')})` : '';
    const context = view.findings.slice(0, 3).map((f) => f.title);
    const lines = [headline(view)];
    const benign = benignEvidence(view);
    if (benign.length > 0) lines.push(`Benign because: ${benign.map((f) => f.title).join('; ')}.`);
    // Each case's fixed words are written in one literal, none glued to a substitution: the search
    // index then posts a session once for them, under the literal's phrase (scripts/search-phrases.ts).
    const confidence = CONFIDENCE_WORDS[view.confidence ?? 'low'];
    if (found.length === 0) {
      lines.push(
        context.length > 0
          ? `0 indicators from ${tools} tools${gaps}; ${confidence}.\nNo risk indicators. Context: ${context.join('; ')}.`
          : `0 indicators from ${tools} tools${gaps}; ${confidence}.\nNo risk indicators.`,
      );
    } else {
      lines.push(
        found.length === 1
          ? `1 indicator from ${tools} tools${gaps}; ${confidence}.\nIndicators:`
          : `${found.length} indicators from ${tools} tools${gaps}; ${confidence}.\nIndicators:`,
      );
      for (const f of found.slice(0, 6))
        lines.push(`- [${f.severity} ${f.score}] ${f.title} (${f.source_tool})`);
    }
    const related = view.related.filter((r) => r.role === 'related');
    if (related.length > 0) {
      lines.push(
        `Related entities: ${list(related.map((r) => `${r.type}:${r.value} (${r.relationship ?? 'related'})`))}.`,
      );
    }
    return lines.join('\n');
  },
  recommendations(view) {
    const out: string[] = [];
    const action = containment(view);
    if (action) out.push(action);
    if (action && view.steward?.criticality === 'critical') {
      out.push(`Escalate to the on-call incident manager now: ${view.entity.value} is a critical asset.`);
    }
    if (hasCategory(view, 'impersonation'))
      out.push(takedownStep(view.entity.value, view.registrationKnown === true));
    if (hasCategory(view, 'privileged_identity') && view.verdict !== 'benign') {
      out.push(
        `Verify privileged activity of ${view.entity.value} against change tickets and confirm it is covered by MFA and the tiered admin model.`,
      );
    }
    if (hasCategory(view, 'critical_asset') && view.verdict !== 'benign') {
      out.push(
        `Treat ${view.entity.value} as a tier-0 asset: escalate any suspicious activity on it immediately.`,
      );
    }
    const incidents = evidenceOf(view, 'incident_history');
    if (incidents.length > 0) out.push(`Review the linked incidents: ${list(incidents)}.`);
    const neighbours = evidenceOf(view, 'association');
    if (neighbours.length > 0)
      out.push(`Review the high-risk neighbours in the knowledge graph: ${list(neighbours)}.`);
    const priors = evidenceOf(view, 'prior_verdict');
    if (priors.length > 0) out.push(`Read the earlier investigation ${priors[0]} for context.`);
    const failed = incomplete(view.coverage);
    if (failed.length > 0) {
      out.push(`Re-run the investigation: ${failed.join(', ')} did not complete, so the verdict may change.`);
    }
    if (view.verdict === 'benign') out.push(CLOSE_AS_BENIGN.soc);
    if (view.verdict === 'unknown') {
      out.push(
        failed.length > 0
          ? 'Too few checks completed for a verdict: re-run once the failing data sources are available.'
          : 'Nothing is known either way: not evidence that it is safe. If it is known to be legitimate, add it to the allowlist; otherwise keep watching it.',
      );
    }
    return out;
  },
};

// ---- CISO ----

const PLAIN_VERDICT: Record<Verdict, string> = {
  malicious: 'is very likely hostile',
  suspicious: 'shows warning signs that need attention',
  benign: 'is known to be legitimate',
  unknown: 'is not known to be either safe or hostile',
};

/** Users and hosts are victims or compromised far more often than hostile (asset-wording.ts). */
const PLAIN_ASSESSMENT: Record<EntityAssessment, string> = {
  compromised: 'is likely compromised',
  targeted: 'appears to be targeted and needs attention',
  at_risk: 'is at risk and needs attention',
};

const ciso: Persona = {
  name: 'CISO',
  description: 'Executive summary: business impact, risk level and the decision needed, without jargon.',
  opening(entity) {
    return `Assessing the business risk of ${plainSubject(entity).replace(/^The/, 'the')}. An executive summary follows when the checks are done.`;
  },
  summary(view) {
    const level = riskLevel(view.riskScore);
    const parts = [
      `${plainSubject(view.entity)} ${view.assessment ? PLAIN_ASSESSMENT[view.assessment] : PLAIN_VERDICT[view.verdict]}. Overall risk: ${level} (${view.riskScore} out of 100).`,
    ];
    const impacts = [...new Set(indicators(view).map((f) => f.impact))].slice(0, 3);
    if (impacts.length > 0) parts.push(`Why it matters: ${impacts.join(' ')}`);
    else parts.push('None of the checks found anything of concern.');
    if (incomplete(view.coverage).length > 0) {
      parts.push('Some checks could not be completed, so this assessment may be incomplete.');
    }
    const [decision] = ciso.recommendations(view);
    if (decision) parts.push(`Decision: ${decision}`);
    return parts.join(' ');
  },
  recommendations(view) {
    const out: string[] = [];
    const noun = { ip: 'address', domain: 'website', user: 'account', host: 'computer' }[view.entity.type];
    if (view.steward && (view.verdict === 'malicious' || view.verdict === 'suspicious')) {
      out.push(coordinatedDecision(view.steward, noun));
    } else if (view.verdict === 'malicious') {
      out.push(
        `Approve immediate containment of this ${noun}; the business disruption is limited to this one ${noun}.`,
      );
    } else if (view.verdict === 'suspicious') {
      out.push(
        'No emergency action yet: the security team should complete its review within one business day.',
      );
    } else if (view.verdict === 'benign') {
      out.push(CLOSE_AS_BENIGN.ciso);
    } else if (incomplete(view.coverage).length > 0) {
      out.push('Ask for the assessment to be repeated once the missing information is available.');
    } else {
      out.push('No decision yet: nothing is known about it either way, which is not the same as safe.');
    }
    if (hasCategory(view, 'impersonation')) out.push(takedownDecision(view.registrationKnown === true));
    if (
      (hasCategory(view, 'privileged_identity') || hasCategory(view, 'critical_asset')) &&
      view.verdict !== 'benign'
    ) {
      out.push(`Make sure the owner of this critical ${noun} is informed.`);
    }
    if (incomplete(view.coverage).length > 0 && view.verdict !== 'unknown') {
      out.push('Treat the result as provisional until the incomplete checks have been repeated.');
    }
    return out;
  },
};

// ---- Threat Hunter ----

const HYPOTHESES: Partial<Record<FindingCategory, string>> = {
  impersonation: 'phishing or credential-harvesting infrastructure imitating a trusted brand',
  suspicious_infrastructure:
    'attacker-operated infrastructure (command and control, generated domains, spoofed sources)',
  privileged_identity: 'misuse of a privileged or service identity (credential theft, ticket forgery)',
  critical_asset: 'an attack path through a tier-0 or high-value system',
  anomalous_naming: 'an unmanaged or rogue device or account on the network',
  incident_history: 'a recurring foothold: the entity keeps showing up in incidents',
  association: 'part of a cluster of known-bad entities',
  prior_verdict: 'a known-bad entity resurfacing',
  network_exposure: 'traffic tunnelled around network controls',
};

function hunts(view: ReportView): string[] {
  const { entity } = view;
  const out: string[] = [];
  const brands = impersonatedBrands(view);
  if (brands.length > 0) {
    out.push(
      `Hunt DNS and proxy logs for other look-alikes of ${brands.join(', ')} (confusable spellings, typos, brand plus lure words) registered recently.`,
    );
  }
  switch (entity.type) {
    case 'domain':
      out.push(
        `Pivot on ${registrableOf(entity) ?? entity.value}: passive DNS for the IPs it resolved to and domains co-hosted on them.`,
      );
      break;
    case 'ip':
      if (!isInternalIp(view)) {
        out.push(
          `Look for beaconing to ${entity.value}: connections at regular intervals with small, uniform payloads or long-lived sessions.`,
        );
      }
      break;
    case 'user':
      out.push(
        `Hunt for logons of ${parseUser(entity.value).name} from hosts it never used before or at unusual hours; if it is a service account, look for Kerberos service-ticket requests with RC4 (Kerberoasting).`,
      );
      break;
    case 'host':
      out.push(
        `Hunt for lateral movement from ${entity.value}: remote service creation, WMI or PowerShell remoting, new admin-share access.`,
      );
      break;
  }
  const pivots = view.related.filter(
    (r) => r.role === 'related' && r.relationship === 'co_occurs_in_incident',
  );
  if (pivots.length > 0)
    out.push(`Pivot on co-occurring entities: ${list(pivots.map((p) => `${p.type}:${p.value}`))}.`);
  if (hasCategory(view, 'association')) {
    out.push(
      'Expand the knowledge graph around the high-risk neighbours (depth 2) to find shared infrastructure.',
    );
  }
  return out;
}

const threatHunter: Persona = {
  name: 'Threat Hunter',
  description: 'Hypotheses, pivots and hunting leads built from the same evidence.',
  opening(entity, tools) {
    return `Opening a hunt on ${entityLabel(entity)}: ${tools.join(', ')}. Looking for hypotheses and pivots.`;
  },
  summary(view) {
    const found = indicators(view);
    const categories = [...new Set(found.map((f) => f.category))];
    const hypotheses = categories.map((c) => HYPOTHESES[c]).filter((h): h is string => Boolean(h));
    const pivots = view.related.filter((r) => r.role === 'related');
    const lines = [
      `Hunt brief: ${entityLabel(view.entity)} · ${verdictWords(view)} · risk ${view.riskScore}/100${view.confidence ? ` · confidence ${view.confidence}` : ''}.`,
    ];
    lines.push(
      hypotheses.length > 0
        ? `Hypotheses: ${hypotheses.slice(0, 3).join('; ')}.`
        : 'No hypothesis: nothing here departs from baseline.',
    );
    if (found.length > 0)
      lines.push(
        `Signals: ${found
          .slice(0, 5)
          .map((f) => `${f.title} [${f.score}]`)
          .join('; ')}.`,
      );
    lines.push(
      pivots.length > 0
        ? `Pivots (${pivots.length}): ${list(
            pivots.map((p) => `${p.type}:${p.value} via ${p.relationship ?? 'related'}`),
            8,
          )}.`
        : 'No pivots discovered.',
    );
    if (incomplete(view.coverage).length > 0)
      lines.push(`Blind spots: ${incomplete(view.coverage).join(', ')} did not complete.`);
    return lines.join('\n');
  },
  recommendations(view) {
    const out = hunts(view);
    if (out.length === 0 || (view.verdict === 'benign' && indicators(view).length === 0)) {
      out.push(CLOSE_AS_BENIGN.hunter);
    }
    return out;
  },
};

export const PERSONAS: Record<PersonaName, Persona> = {
  'SOC Analyst': socAnalyst,
  CISO: ciso,
  'Threat Hunter': threatHunter,
};

/**
 * The persona named (see persona-names.ts for the accepted spellings). Missing or blank → SOC
 * Analyst. Unknown → ValidationError at `persona` listing the valid names.
 */
export function resolvePersona(name?: string | null): Persona {
  return PERSONAS[personaNamed(name)];
}
