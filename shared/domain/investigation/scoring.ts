import { type AttackTechniqueId, attackTechniques } from '../core/attack';
import type {
  Coverage,
  Finding,
  FindingCategory,
  FindingSeverity,
  IncidentSeverity,
  RiskBasisEntry,
  ScoreContribution,
  ScoreExplanation,
  SourceContribution,
  ToolCall,
  ToolName,
  Verdict,
} from '../core/vocabulary';
import { VERDICT_THRESHOLDS } from './thresholds';

export type { ScoreContribution, ScoreExplanation, SourceContribution };
export { VERDICT_THRESHOLDS };

/**
 * Risk scoring. Every number that turns evidence into a verdict lives here, so it can be read,
 * tested at its boundaries and documented in one place (docs/investigations.md).
 *
 * Finding score: 0-100, the tool's estimate of how much this one observation alone says the entity
 * is hostile or compromised. Its severity is derived from the score (never chosen separately), so
 * the two cannot disagree:
 *   0 info · 1-24 low · 25-49 medium · 50-79 high · 80-100 critical
 *
 * Risk score: the findings combined as independent pieces of evidence (a "noisy OR"),
 *   risk = round(100 × (1 − Π (1 − score_i / 100)))
 * It is never below the strongest finding, grows with each extra finding but with diminishing
 * returns, stays within 0-100, and does not depend on the order of the findings. Info findings
 * (score 0) do not move it. Two medium findings of 30 make 51; one finding of 80 makes 80.
 *
 * Which findings count (each evidence source once), the verdict and its confidence are verdict.ts.
 */

export const SEVERITY_FLOORS: Record<FindingSeverity, number> = {
  info: 0,
  low: 1,
  medium: 25,
  high: 50,
  critical: 80,
};

export const MIN_COVERAGE = { succeededTools: 2, succeededRatio: 0.5 } as const;
export const RISK_FORMULA = 'risk = round(100 × (1 − Π (1 − score_i / 100)))';

export function clampScore(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(100, Math.max(0, Math.round(score)));
}

export function severityForScore(score: number): FindingSeverity {
  const s = clampScore(score);
  if (s >= SEVERITY_FLOORS.critical) return 'critical';
  if (s >= SEVERITY_FLOORS.high) return 'high';
  if (s >= SEVERITY_FLOORS.medium) return 'medium';
  if (s >= SEVERITY_FLOORS.low) return 'low';
  return 'info';
}

/** Noisy-OR of 0-100 scores, rounded to an integer 0-100. */
export function combineScores(scores: readonly number[]): number {
  let clean = 1;
  for (const score of scores) clean *= 1 - clampScore(score) / 100;
  return clampScore(100 * (1 - clean));
}

export function riskScore(findings: readonly Pick<Finding, 'score'>[]): number {
  return combineScores(findings.map((f) => f.score));
}

export function coverageOf(toolCalls: readonly ToolCall[]): Coverage {
  // A skipped tool never ran: it neither supports nor weakens a benign verdict.
  const ran = toolCalls.filter((c) => c.status !== 'skipped');
  const intel = toolCalls.filter((c) => c.name.startsWith('intel_'));
  const source = (c: ToolCall) => c.name.slice('intel_'.length);
  return {
    tools_run: ran.length,
    tools_succeeded: toolCalls.filter((c) => c.status === 'succeeded').length,
    tools_failed: toolCalls.filter((c) => c.status === 'failed').map((c) => c.name),
    tools_timed_out: toolCalls.filter((c) => c.status === 'timed_out').map((c) => c.name),
    ...(intel.length > 0
      ? {
          intel_sources: {
            answered: intel.filter((c) => c.status === 'succeeded').map(source),
            cached: intel.filter((c) => c.status === 'succeeded' && c.cached).map(source),
            skipped: intel.filter((c) => c.status === 'skipped').map(source),
            failed: intel.filter((c) => c.status === 'failed' || c.status === 'timed_out').map(source),
          },
        }
      : {}),
  };
}

/** Plain-language band of a risk score, for non-technical readers. */
export function riskLevel(risk: number): 'low' | 'elevated' | 'high' {
  const r = clampScore(risk);
  if (r >= VERDICT_THRESHOLDS.malicious) return 'high';
  if (r >= VERDICT_THRESHOLDS.suspicious) return 'elevated';
  return 'low';
}

// ---- History weighting ----

const DAY_MS = 86_400_000;

/** 1 for now, halving every `halfLifeDays`, never below `floor`; future dates count as now. */
export function recencyWeight(at: string, now: Date, halfLifeDays: number, floor: number): number {
  const time = Date.parse(at);
  if (Number.isNaN(time)) return floor;
  const ageDays = Math.max(0, (now.getTime() - time) / DAY_MS);
  return Math.max(floor, 0.5 ** (ageDays / halfLifeDays));
}

export function ageInDays(at: string, now: Date): number | null {
  const time = Date.parse(at);
  return Number.isNaN(time) ? null : Math.max(0, Math.floor((now.getTime() - time) / DAY_MS));
}

/**
 * Incidents: one incident contributes severity weight × recency (half-life 30 days, floor 0.25) ×
 * 0.8 when resolved/closed; incidents combine by noisy OR, capped at 90 (history alone never proves
 * maliciousness with certainty). One fresh critical incident alone is "suspicious" (60); two are
 * "malicious" (84).
 */
export const INCIDENT_WEIGHTS: Record<IncidentSeverity, number> = {
  informational: 3,
  low: 10,
  medium: 25,
  high: 45,
  critical: 60,
};
export const INCIDENT_HALF_LIFE_DAYS = 30;
export const INCIDENT_RECENCY_FLOOR = 0.25;
export const INCIDENT_CLOSED_FACTOR = 0.8;
export const INCIDENT_SCORE_CAP = 90;

export function incidentContribution(
  incident: { severity: IncidentSeverity; status: string; created_at: string },
  now: Date,
): number {
  const weight = INCIDENT_WEIGHTS[incident.severity] ?? INCIDENT_WEIGHTS.low;
  const recency = recencyWeight(incident.created_at, now, INCIDENT_HALF_LIFE_DAYS, INCIDENT_RECENCY_FLOOR);
  const closed = /^(resolved|closed)$/i.test(incident.status) ? INCIDENT_CLOSED_FACTOR : 1;
  return weight * recency * closed;
}

export function incidentScore(
  incidents: readonly { severity: IncidentSeverity; status: string; created_at: string }[],
  now: Date,
): number {
  let clean = 1;
  for (const incident of incidents) clean *= 1 - incidentContribution(incident, now) / 100;
  return Math.min(INCIDENT_SCORE_CAP, clampScore(100 * (1 - clean)));
}

/**
 * Prior verdicts: malicious 70, suspicious 35, benign/unknown 0, × recency (half-life 90 days,
 * floor 0.3). The strongest one counts (max, not combined): investigating an entity again must not
 * make it look worse just because it was investigated more often.
 */
export const PRIOR_VERDICT_WEIGHTS: Record<Verdict, number> = {
  malicious: 70,
  suspicious: 35,
  benign: 0,
  unknown: 0,
};
export const PRIOR_HALF_LIFE_DAYS = 90;
export const PRIOR_RECENCY_FLOOR = 0.3;

export function priorVerdictScore(verdict: Verdict, completedAt: string, now: Date): number {
  return clampScore(
    PRIOR_VERDICT_WEIGHTS[verdict] *
      recencyWeight(completedAt, now, PRIOR_HALF_LIFE_DAYS, PRIOR_RECENCY_FLOOR),
  );
}

/**
 * Analyst feedback: a person's true-positive confirmation of an earlier session counts as evidence
 * (75 × recency, the prior-verdict half-life and floor); a false positive is benign evidence (0).
 */
export const CONFIRMED_WEIGHT = 75;

export function confirmedScore(at: string, now: Date): number {
  return clampScore(CONFIRMED_WEIGHT * recencyWeight(at, now, PRIOR_HALF_LIFE_DAYS, PRIOR_RECENCY_FLOOR));
}

/**
 * Graph neighbours: each neighbour judged malicious (or risk ≥ 70) contributes 45, each suspicious
 * one (or risk ≥ 30) 20; combined by noisy OR, capped at 80 (guilt by association is never proof).
 * A neighbour's risk counts only as far as it rests on evidence independent of the investigated
 * entity (independentRisk).
 */
export const NEIGHBOUR_WEIGHTS = { malicious: 45, suspicious: 20 } as const;
export const NEIGHBOUR_SCORE_CAP = 80;

export function neighbourRisk(neighbour: {
  verdict?: Verdict | null;
  risk_score?: number | null;
}): 'malicious' | 'suspicious' | null {
  const risk = neighbour.risk_score ?? 0;
  if (neighbour.verdict === 'malicious' || risk >= VERDICT_THRESHOLDS.malicious) return 'malicious';
  if (neighbour.verdict === 'suspicious' || risk >= VERDICT_THRESHOLDS.suspicious) return 'suspicious';
  return null;
}

/**
 * What a report's risk rests on, stored with the entity's score in the graph: one entry per counted
 * scored finding, with the incidents (an incident finding's evidence) or the entities (an
 * association's evidence, `<type>:<value>`, and what their own risk rested on) it depends on.
 */
export const MAX_BASIS_ENTRIES = 8;
/** Refs kept over all entries: the basis rides on the graph node, which should stay one write unit. */
export const MAX_BASIS_REFS = 24;

export function riskBasisOf(
  findings: readonly Pick<Finding, 'finding_id' | 'score' | 'category' | 'evidence' | 'evidence_source'>[],
): RiskBasisEntry[] {
  let room = MAX_BASIS_REFS;
  return findings
    .filter((f) => clampScore(f.score) > 0)
    .map((f) => ({
      source: f.evidence_source ?? f.finding_id,
      score: clampScore(f.score),
      refs:
        f.category === 'incident_history' || f.category === 'association'
          ? [...new Set(f.evidence)].sort()
          : [],
    }))
    .sort((a, b) => b.score - a.score || a.source.localeCompare(b.source))
    .slice(0, MAX_BASIS_ENTRIES)
    .map((entry) => {
      const refs = entry.refs.slice(0, room);
      room -= refs.length;
      return { ...entry, refs };
    });
}

/**
 * The part of a neighbour's risk that does not rest on the investigated entity: entries of its basis
 * that depend on the subject itself (its `<type>:<value>` key: the neighbour is risky because of
 * it) are left out, and an incident entry counts only for the share of its incidents the two do not
 * share (the subject's own incident_history counts those). Across a co-occurrence the link is those
 * shared incidents, so an incident entry sharing any of them is left out whole: a capped noisy OR
 * cannot be split into its incidents, and the rest is the neighbour's own activity (a phished user's
 * other incidents say nothing new about the IP that phished her). A neighbour scored before the
 * basis existed counts with its stored risk.
 */
export function independentRisk(
  neighbour: {
    risk_score?: number | null;
    risk_basis?: readonly RiskBasisEntry[];
    evidence?: readonly string[];
    relationship?: string;
  },
  subjectKey: string,
): { risk: number; left_out: RiskBasisEntry[] } {
  const risk = neighbour.risk_score ?? 0;
  if (!neighbour.risk_basis) return { risk: clampScore(risk), left_out: [] };
  const shared = new Set((neighbour.evidence ?? []).filter((id) => id.startsWith('inc_')));
  const kept: number[] = [];
  const leftOut: RiskBasisEntry[] = [];
  for (const entry of neighbour.risk_basis) {
    if (entry.refs.includes(subjectKey)) {
      leftOut.push(entry);
      continue;
    }
    const incidents = entry.refs.filter((ref) => ref.startsWith('inc_'));
    const sharedCount = incidents.filter((id) => shared.has(id)).length;
    const coOccurring = neighbour.relationship === 'co_occurs_in_incident' && sharedCount > 0;
    if (coOccurring || (incidents.length > 0 && sharedCount === entry.refs.length)) {
      leftOut.push(entry);
      continue;
    }
    kept.push(
      sharedCount > 0 ? (entry.score * (entry.refs.length - sharedCount)) / entry.refs.length : entry.score,
    );
  }
  return { risk: combineScores(kept), left_out: leftOut };
}

export function neighbourhoodScore(counts: { malicious: number; suspicious: number }): number {
  const scores = [
    ...Array<number>(counts.malicious).fill(NEIGHBOUR_WEIGHTS.malicious),
    ...Array<number>(counts.suspicious).fill(NEIGHBOUR_WEIGHTS.suspicious),
  ];
  return Math.min(NEIGHBOUR_SCORE_CAP, combineScores(scores));
}

// ---- Building findings ----

export interface FindingInput {
  tool: ToolName;
  /** Short snake_case code, unique within the tool (add a discriminator for repeats). */
  code: string;
  title: string;
  description: string;
  impact: string;
  score: number;
  category: FindingCategory;
  evidence?: readonly string[];
  /** ATT&CK techniques from the curated table, only where the finding really points to one. */
  attack?: readonly AttackTechniqueId[];
  /** Positive evidence of benignness (Finding.benign); the score must be 0. */
  benign?: true;
  evidence_source?: string;
  discounted?: { score: number; reason: string };
}

/** What a rule table declares for each finding it can make: the words, the score and the techniques. */
export type FindingRule = Pick<
  FindingInput,
  'code' | 'title' | 'description' | 'impact' | 'score' | 'category' | 'attack'
>;

export function makeFinding(input: FindingInput): Finding {
  const score = clampScore(input.score);
  return {
    finding_id: `${input.tool}:${input.code}`,
    title: input.title,
    description: input.description,
    impact: input.impact,
    severity: severityForScore(score),
    score,
    source_tool: input.tool,
    category: input.category,
    evidence: [...(input.evidence ?? [])],
    ...(input.attack?.length ? { attack: attackTechniques(input.attack) } : {}),
    ...(input.benign && score === 0 ? { benign: true as const } : {}),
    ...(input.evidence_source ? { evidence_source: input.evidence_source } : {}),
    ...(input.discounted
      ? { discounted: { score: clampScore(input.discounted.score), reason: input.discounted.reason } }
      : {}),
  };
}

const SEVERITY_ORDER: Record<FindingSeverity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** Strongest first; ties broken by ID so reports are deterministic. */
export function sortFindings<T extends Pick<Finding, 'score' | 'severity' | 'finding_id'>>(
  findings: readonly T[],
): T[] {
  return [...findings].sort(
    (a, b) =>
      b.score - a.score ||
      SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity] ||
      a.finding_id.localeCompare(b.finding_id),
  );
}
