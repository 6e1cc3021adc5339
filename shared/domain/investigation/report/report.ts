import { type Entity, entityKey, sameEntity } from '../../core/entity';
import { normaliseEntity } from '../../core/entity-normalisation';
import type {
  Attributes,
  Confidence,
  Coverage,
  Facts,
  Finding,
  Report,
  ReportEntity,
  ToolCall,
  ToolCallStatus,
  ToolName,
  Verdict,
} from '../../core/vocabulary';
import { coverageSources, outsideSourcesLine, type SourceSetup } from '../coverage-sources';
import { coverageOf, sortFindings } from '../scoring';
import { assess, explainScore } from '../verdict';
import {
  asOfTheRun,
  criticalAssetOf,
  entityAssessment,
  registrationKnown,
  stewardshipOf,
} from './asset-wording';
import { conflictFinding, conflictLine, conflictOf, conflictRecommendations } from './conflicts';
import { type Persona, type ReportView, resolvePersona } from './personas';

/**
 * Turns recorded tool calls into the report, the assistant's opening and closing messages and the
 * graph edges (a run that ends without a report closes with persona-endings.ts). Pure: the same
 * tool calls always give the same report (no clock, no randomness).
 */

export const MAX_REPORT_RELATED_ENTITIES = 50;

export interface BuildReportInput {
  entity: Entity;
  /** A Persona or a name/alias; missing → SOC Analyst. */
  persona?: Persona | string | null;
  toolCalls: readonly ToolCall[];
  /** Defaults to the findings of the succeeded tool calls. */
  findings?: readonly Finding[];
  /** What the deployment turned on: with it, the coverage lists every source (coverage-sources.ts). */
  sources?: SourceSetup;
}

function personaOf(persona: BuildReportInput['persona']): Persona {
  return typeof persona === 'object' && persona !== null ? persona : resolvePersona(persona);
}

export function findingsFrom(toolCalls: readonly ToolCall[]): Finding[] {
  return toolCalls.flatMap((call) =>
    call.status === 'succeeded' && call.output ? call.output.findings : [],
  );
}

/** Related entities from every succeeded tool, first mention wins, evidence merged; subject excluded. */
export function relatedEntitiesFrom(entity: Entity, toolCalls: readonly ToolCall[]): ReportEntity[] {
  const byKey = new Map<string, ReportEntity>();
  for (const call of toolCalls) {
    if (call.status !== 'succeeded' || !call.output) continue;
    for (const related of call.output.related) {
      if (sameEntity(related.entity, entity)) continue;
      const key = entityKey(related.entity);
      const existing = byKey.get(key);
      if (existing) {
        existing.evidence = [...new Set([...(existing.evidence ?? []), ...related.evidence])].slice(0, 20);
        continue;
      }
      byKey.set(key, {
        type: related.entity.type,
        value: related.entity.value,
        role: 'related',
        relationship: related.relationship,
        evidence: [...related.evidence].slice(0, 20),
      });
    }
  }
  return [...byKey.values()].slice(0, MAX_REPORT_RELATED_ENTITIES);
}

/** Attributes of the investigated entity from every succeeded tool, in tool order; the first value wins. */
export function entityAttributesFrom(toolCalls: readonly ToolCall[]): Attributes | undefined {
  const out: Attributes = {};
  for (const call of toolCalls) {
    if (call.status !== 'succeeded' || !call.output?.attributes) continue;
    for (const [key, value] of Object.entries(call.output.attributes)) {
      if (!(key in out)) out[key] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** What the tool calls establish, before any persona words it: the report's findings, score and verdict. */
export interface Assessment {
  findings: Finding[];
  coverage: Coverage;
  riskScore: number;
  verdict: Verdict;
  confidence: Confidence;
}

/**
 * The findings (strongest first), coverage, risk score and verdict a report of these tool calls
 * carries. The analyst turn grounds the model on these alone, without the persona's wording.
 */
export function assessmentOf(toolCalls: readonly ToolCall[], findings?: readonly Finding[]): Assessment {
  const sorted = sortFindings(findings ?? findingsFrom(toolCalls));
  const coverage = coverageOf(toolCalls);
  const { riskScore, verdict, confidence } = assess(sorted, coverage);
  return { findings: sorted, coverage, riskScore, verdict, confidence };
}

export function buildReport(input: BuildReportInput): Report {
  const entity = normaliseEntity(input.entity);
  const persona = personaOf(input.persona);
  const {
    findings,
    coverage: toolCoverage,
    riskScore: risk,
    verdict,
    confidence,
  } = assessmentOf(input.toolCalls, input.findings);
  const coverage: Coverage = input.sources
    ? { ...toolCoverage, sources: coverageSources(entity.type, input.toolCalls, input.sources) }
    : toolCoverage;
  const entities: ReportEntity[] = [
    { type: entity.type, value: entity.value, role: 'investigated', ...withAttributes(input.toolCalls) },
    ...relatedEntitiesFrom(entity, input.toolCalls),
  ];
  const assessment = entityAssessment(entity, verdict, findings);
  const steward = stewardshipOf(entity, criticalAssetOf(input.toolCalls), findings);
  const view: ReportView = {
    entity,
    riskScore: risk,
    verdict,
    confidence,
    findings,
    related: entities,
    coverage,
    ...(assessment ? { assessment } : {}),
    ...(steward ? { steward } : {}),
    registrationKnown: registrationKnown(input.toolCalls, findings),
  };
  const conflict = conflictOf(findings, verdict, risk);
  const stated = asOfTheRun(findings, input.toolCalls);
  const lines = [
    persona.summary(view),
    conflict ? conflictLine(conflict) : undefined,
    outsideSourcesLine(coverage.sources),
  ];
  const recommendations = persona.recommendations(view);
  return {
    summary: lines.filter(Boolean).join('\n'),
    risk_score: risk,
    verdict,
    confidence,
    persona: persona.name,
    entities,
    findings: conflict ? [...stated, conflictFinding(conflict)] : stated,
    recommendations: conflict
      ? conflictRecommendations(conflict, persona.name, recommendations)
      : recommendations,
    coverage,
    score_explanation: explainScore(findings, coverage),
    ...(assessment ? { assessment } : {}),
  };
}

function withAttributes(toolCalls: readonly ToolCall[]): { attributes?: Attributes } {
  const attributes = entityAttributesFrom(toolCalls);
  return attributes ? { attributes } : {};
}

// ---- Messages persisted in the session history ----

export function openingMessage(
  persona: Persona | string | null | undefined,
  entity: Entity,
  tools: readonly ToolName[],
): string {
  return personaOf(persona).opening(normaliseEntity(entity), tools);
}

/** The assistant's final message: the summary followed by the recommendations. */
export function closingMessage(report: Report): string {
  if (report.analyst?.mode === 'bedrock') {
    const { narrative, recommended_actions: actions, questions_for_human: questions } = report.analyst;
    const lists = [
      actions.length ? `Recommended actions:\n${actions.map((a) => `- ${a}`).join('\n')}` : '',
      questions.length ? `Questions for you:\n${questions.map((q) => `- ${q}`).join('\n')}` : '',
    ].filter(Boolean);
    return [narrative, ...lists].join('\n\n');
  }
  if (report.recommendations.length === 0) return report.summary;
  const heading = report.persona === 'CISO' ? 'Recommended decisions:' : 'Next steps:';
  return `${report.summary}\n\n${heading}\n${report.recommendations.map((r) => `- ${r}`).join('\n')}`;
}

// ---- Graph edges and raw results ----

/**
 * An edge the investigation discovered. `relationship` uses the knowledge graph's vocabulary
 * (shared/domain/graph/graph.ts): links found by analysis are `related_in_investigation`, and `link`
 * says which (`subdomain_of`, `impersonates`, `alias_of`).
 */
export interface DiscoveredEdge {
  from: Entity;
  to: Entity;
  relationship: 'related_in_investigation';
  link: string;
  /** The session ID when given (graph evidence is session or incident IDs), else the tool's evidence. */
  evidence: string[];
}

/**
 * Edges worth writing to the graph after an investigation: links the tools found by analysis.
 * Known graph neighbours are already edges, and incident co-occurrences are written when the
 * incident is ingested, so neither is repeated here.
 */
export function relationshipsFrom(input: {
  entity: Entity;
  toolCalls: readonly ToolCall[];
  sessionId?: string;
}): DiscoveredEdge[] {
  const entity = normaliseEntity(input.entity);
  const edges = new Map<string, DiscoveredEdge>();
  for (const call of input.toolCalls) {
    if (call.status !== 'succeeded' || !call.output) continue;
    for (const related of call.output.related) {
      if (related.known || related.relationship === 'co_occurs_in_incident') continue;
      if (sameEntity(related.entity, entity)) continue;
      const key = entityKey(related.entity);
      if (edges.has(key)) continue;
      edges.set(key, {
        from: entity,
        to: related.entity,
        relationship: 'related_in_investigation',
        link: related.relationship,
        evidence: input.sessionId ? [input.sessionId] : [...related.evidence],
      });
    }
  }
  return [...edges.values()];
}

export interface RawResult {
  status: ToolCallStatus;
  facts: Facts | null;
  error?: string;
}

/** `raw_results` of a synchronous start with include_raw_results: each tool's facts by tool name. */
export function rawResultsFrom(toolCalls: readonly ToolCall[]): Record<string, RawResult> {
  const out: Record<string, RawResult> = {};
  for (const call of toolCalls) {
    out[call.name] = {
      status: call.status,
      facts: call.output?.facts ?? null,
      ...(call.error ? { error: call.error } : {}),
    };
  }
  return out;
}
