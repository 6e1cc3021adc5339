import type { Finding, PersonaName, Verdict } from '../../core/vocabulary';
import { makeFinding } from '../scoring';
import { VERDICT_THRESHOLDS } from '../thresholds';
import { AUTHORITATIVE_SOURCES } from '../verdict';
import { CLOSE_AS_BENIGN } from './personas';

/**
 * A benign verdict that rests on the tenant's own word (an allowlist entry, an analyst's review)
 * while the evidence says risk ≥ 70: the verdict may follow the tenant, but the report names the
 * conflict (a finding and a summary line), keeps the evidence, and never recommends both reviewing
 * the evidence and closing as benign.
 */
export interface Conflict {
  /** The tenant's finding the verdict follows. */
  override: Finding;
  /** The strongest evidence it overrides. */
  evidence: Finding[];
  risk: number;
}

export function conflictOf(
  findings: readonly Finding[],
  verdict: Verdict,
  risk: number,
): Conflict | undefined {
  if (verdict !== 'benign' || risk < VERDICT_THRESHOLDS.malicious) return undefined;
  const override = findings.find(
    (f) => f.benign === true && AUTHORITATIVE_SOURCES.includes(f.evidence_source ?? ''),
  );
  if (!override) return undefined;
  const evidence = findings.filter((f) => f.score > 0).slice(0, 3);
  return evidence.length > 0 ? { override, evidence, risk } : undefined;
}

const titles = (conflict: Conflict) => conflict.evidence.map((f) => f.title).join('; ');

/** The finding that states the conflict (score 0: it is added after the score and verdict are set). */
export function conflictFinding(conflict: Conflict): Finding {
  return makeFinding({
    tool: conflict.override.source_tool,
    code: 'conflict',
    title: `Conflict: the tenant's word overrides evidence of risk ${conflict.risk}/100`,
    description: `The verdict follows "${conflict.override.title}", but the other sources say otherwise: ${titles(conflict)}. The evidence is kept in this report.`,
    impact:
      "The organisation's own exception marks this as legitimate although other checks found serious warning signs; someone should confirm the exception still holds.",
    score: 0,
    category: 'tenant_knowledge',
    evidence: conflict.evidence.map((f) => f.finding_id),
  });
}

export function conflictLine(conflict: Conflict): string {
  return `Conflict: ${conflict.override.title} overrides evidence of risk ${conflict.risk}/100 (${titles(conflict)}); the verdict follows the tenant's word and the evidence is kept.`;
}

/** Recommendations without "close as benign", led by confirming the exception. */
export function conflictRecommendations(
  conflict: Conflict,
  persona: PersonaName,
  recommendations: readonly string[],
): string[] {
  const closing = new Set<string>(Object.values(CLOSE_AS_BENIGN));
  const confirm =
    persona === 'CISO'
      ? 'Decide whether the exception for this entity still holds: other checks found serious warning signs.'
      : `Confirm that "${conflict.override.title}" still holds before closing: it overrides ${titles(conflict)}.`;
  return [confirm, ...recommendations.filter((r) => !closing.has(r))];
}
