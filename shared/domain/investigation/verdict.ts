import type {
  Confidence,
  Coverage,
  DiscountedFinding,
  Finding,
  ScoreContribution,
  ScoreExplanation,
  SourceContribution,
  ToolName,
  Verdict,
} from '../core/vocabulary';
import {
  clampScore,
  combineScores,
  MIN_COVERAGE,
  RISK_FORMULA,
  sortFindings,
  VERDICT_THRESHOLDS,
} from './scoring';

/**
 * From findings to a verdict an analyst can trust (docs/investigations.md, "Verdicts"):
 *
 * Which findings count. Each evidence source counts once: of several scored findings naming the same
 * `evidence_source` only the strongest adds to the risk; the others are listed as discounted. A tool
 * that deliberately does not count what it found (a prior verdict is context; a neighbour whose risk
 * rests on this entity) says so on the finding (`discounted`), and the explanation lists it too.
 *
 * Verdict, first match wins:
 *   the tenant's own word (an allowlist entry, an analyst's false-positive feedback) → benign;
 *   risk ≥ 70 → malicious; risk ≥ 30 → suspicious;
 *   positive evidence of benignness (a finding with `benign: true`: a public resolver, a CDN, a
 *   popularity rank...) and enough coverage (2 tools succeeded and half of those run) → benign;
 *   otherwise → unknown: nothing found either way is not "safe".
 *
 * Confidence: how many independent sources stand behind the verdict. For malicious and suspicious
 * the sources of the counted scored findings (a finding's `evidence_source`, else its tool), for
 * benign those of the benign findings: 1 → low, 2 → medium, 3 or more → high; the tenant's own word
 * (allowlist, feedback) is high on its own. An unknown verdict is always low.
 */

/** Sources whose benign word is the tenant's own decision: it sets the verdict whatever the risk. */
export const AUTHORITATIVE_SOURCES: readonly string[] = ['tenant:allowlist', 'feedback'];

type Scored = Pick<
  Finding,
  'finding_id' | 'title' | 'source_tool' | 'score' | 'severity' | 'benign' | 'evidence_source' | 'discounted'
>;

/** The findings that count towards the risk, and those discounted with the reason. */
export function countEvidence<T extends Scored>(
  findings: readonly T[],
): { counted: T[]; discounted: DiscountedFinding[] } {
  const discounted: DiscountedFinding[] = [];
  const counted: T[] = [];
  const countedSources = new Map<string, string>();
  for (const finding of sortFindings(findings)) {
    if (finding.discounted && finding.discounted.score > clampScore(finding.score)) {
      discounted.push({
        finding_id: finding.finding_id,
        title: finding.title,
        source_tool: finding.source_tool,
        score: clampScore(finding.discounted.score),
        counted: clampScore(finding.score),
        reason: finding.discounted.reason,
      });
    }
    const source = finding.evidence_source;
    if (source && clampScore(finding.score) > 0) {
      const first = countedSources.get(source);
      if (first) {
        discounted.push({
          finding_id: finding.finding_id,
          title: finding.title,
          source_tool: finding.source_tool,
          score: clampScore(finding.score),
          counted: 0,
          reason: `${source} is already counted by ${first}: each source counts once`,
        });
        continue;
      }
      countedSources.set(source, finding.finding_id);
    }
    counted.push(finding);
  }
  return { counted, discounted };
}

export function hasEnoughCoverage(coverage: Pick<Coverage, 'tools_run' | 'tools_succeeded'>): boolean {
  if (coverage.tools_run === 0) return false;
  return (
    coverage.tools_succeeded >= MIN_COVERAGE.succeededTools &&
    coverage.tools_succeeded / coverage.tools_run >= MIN_COVERAGE.succeededRatio
  );
}

const isAuthoritative = (f: Pick<Finding, 'benign' | 'evidence_source'>) =>
  f.benign === true && AUTHORITATIVE_SOURCES.includes(f.evidence_source ?? '');

/** The source a finding counts for when confidence is judged: its evidence_source, else its tool. */
export const sourceKey = (f: Pick<Finding, 'evidence_source' | 'source_tool'>) =>
  f.evidence_source ?? f.source_tool;

export function verdictFor(
  risk: number,
  coverage: Pick<Coverage, 'tools_run' | 'tools_succeeded'>,
  findings: readonly Pick<Finding, 'benign' | 'evidence_source'>[] = [],
): Verdict {
  if (findings.some(isAuthoritative)) return 'benign';
  const r = clampScore(risk);
  if (r >= VERDICT_THRESHOLDS.malicious) return 'malicious';
  if (r >= VERDICT_THRESHOLDS.suspicious) return 'suspicious';
  if (findings.some((f) => f.benign === true) && hasEnoughCoverage(coverage)) return 'benign';
  return 'unknown';
}

/** The independent sources behind a verdict (see the module comment). */
export function verdictSources(
  verdict: Verdict,
  counted: readonly Pick<Finding, 'score' | 'benign' | 'evidence_source' | 'source_tool'>[],
): string[] {
  const relevant =
    verdict === 'benign'
      ? counted.filter((f) => f.benign === true)
      : verdict === 'unknown'
        ? []
        : counted.filter((f) => clampScore(f.score) > 0);
  return [...new Set(relevant.map(sourceKey))].sort();
}

export function confidenceFor(
  verdict: Verdict,
  counted: readonly Pick<Finding, 'score' | 'benign' | 'evidence_source' | 'source_tool'>[],
): Confidence {
  if (verdict === 'unknown') return 'low';
  if (verdict === 'benign' && counted.some(isAuthoritative)) return 'high';
  const sources = verdictSources(verdict, counted);
  if (verdict !== 'benign' && sources.includes('feedback')) return 'high';
  if (sources.length >= 3) return 'high';
  return sources.length === 2 ? 'medium' : 'low';
}

/** Risk, verdict and confidence of a report's findings (counted once each). */
export function assess<T extends Scored>(
  findings: readonly T[],
  coverage: Pick<Coverage, 'tools_run' | 'tools_succeeded'>,
): {
  counted: T[];
  discounted: DiscountedFinding[];
  riskScore: number;
  verdict: Verdict;
  confidence: Confidence;
} {
  const { counted, discounted } = countEvidence(findings);
  const riskScore = combineScores(counted.map((f) => f.score));
  const verdict = verdictFor(riskScore, coverage, counted);
  return { counted, discounted, riskScore, verdict, confidence: confidenceFor(verdict, counted) };
}

// ---- Explaining the score ----

/**
 * Attributes the noisy-OR risk to the counted findings: taken strongest first (the report's order),
 * each adds `score × (what was still unexplained)`; points are the differences of the rounded running
 * risk, so they are whole numbers that add up exactly to the risk score.
 */
export function explainScore(
  findings: readonly Scored[],
  coverage: Pick<Coverage, 'tools_run' | 'tools_succeeded'>,
): ScoreExplanation {
  const assessment = assess(findings, coverage);
  const ordered = assessment.counted.filter((f) => clampScore(f.score) > 0);
  const contributions: ScoreContribution[] = [];
  let clean = 1;
  let shown = 0;
  for (const finding of ordered) {
    clean *= 1 - clampScore(finding.score) / 100;
    const running = clampScore(100 * (1 - clean));
    contributions.push({
      finding_id: finding.finding_id,
      title: finding.title,
      source_tool: finding.source_tool,
      score: clampScore(finding.score),
      points: running - shown,
    });
    shown = running;
  }
  const bySource = new Map<ToolName, SourceContribution>();
  for (const c of contributions) {
    const source = bySource.get(c.source_tool) ?? {
      source_tool: c.source_tool,
      findings: 0,
      alone: 0,
      points: 0,
    };
    source.findings += 1;
    source.points += c.points;
    bySource.set(c.source_tool, source);
  }
  for (const source of bySource.values()) {
    source.alone = combineScores(
      ordered.filter((f) => f.source_tool === source.source_tool).map((f) => f.score),
    );
  }
  const { riskScore: risk, verdict, confidence, counted } = assessment;
  return {
    method: 'noisy_or',
    formula: RISK_FORMULA,
    risk_score: risk,
    verdict,
    verdict_reason: verdictReason(risk, verdict, coverage, counted),
    confidence,
    verdict_sources: verdictSources(verdict, counted),
    contributions,
    sources: [...bySource.values()].sort(
      (a, b) => b.points - a.points || b.alone - a.alone || a.source_tool.localeCompare(b.source_tool),
    ),
    discounted: assessment.discounted,
  };
}

function verdictReason(
  risk: number,
  verdict: Verdict,
  coverage: Pick<Coverage, 'tools_run' | 'tools_succeeded'>,
  counted: readonly Scored[],
): string {
  const ran = `${coverage.tools_succeeded} of ${coverage.tools_run} tools succeeded`;
  const authority = counted.find(isAuthoritative);
  if (authority)
    return `${authority.title} (${authority.evidence_source}): the tenant's word sets benign whatever the risk (${risk})`;
  switch (verdict) {
    case 'malicious':
      return `risk ${risk} ≥ ${VERDICT_THRESHOLDS.malicious} → malicious`;
    case 'suspicious':
      return `risk ${risk} ≥ ${VERDICT_THRESHOLDS.suspicious} → suspicious`;
    case 'benign': {
      const evidence = counted.filter((f) => f.benign === true).map((f) => f.title);
      return `risk ${risk} < ${VERDICT_THRESHOLDS.suspicious}, positive evidence (${evidence.join('; ')}) and ${ran} → benign`;
    }
    default: {
      if (counted.some((f) => f.benign === true))
        return `risk ${risk} < ${VERDICT_THRESHOLDS.suspicious} with benign evidence, but only ${ran} (needs ${MIN_COVERAGE.succeededTools} and half) → unknown`;
      return risk > 0
        ? `risk ${risk} < ${VERDICT_THRESHOLDS.suspicious} and no positive evidence of benignness (${ran}) → unknown`
        : `no evidence either way (${ran}) → unknown`;
    }
  }
}
