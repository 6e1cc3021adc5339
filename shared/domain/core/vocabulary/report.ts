import type { Entity } from '../entity';
import type { Attributes, Confidence, Finding, PersonaName, ToolName, Verdict } from './tools-and-findings';

/** The report, its score explanation (investigation/scoring.ts) and the analyst's section (analyst/report-section.ts). */

export interface ReportEntity extends Entity {
  role: 'investigated' | 'related';
  /** How it relates to the investigated entity (absent for the investigated one). */
  relationship?: string;
  evidence?: string[];
  /** Facts about the entity from offline data and intelligence (investigated entity only). */
  attributes?: Attributes;
}

export interface Coverage {
  tools_run: number;
  tools_succeeded: number;
  tools_failed: ToolName[];
  tools_timed_out: ToolName[];
  /** Present when intelligence connectors were planned: which sources answered and which did not. */
  intel_sources?: IntelCoverage;
  /**
   * Every source the tenant has (built-in tools, each feed, each connector, the analyst) and what
   * became of it in this run (investigation/coverage-sources.ts). Reports stored before it
   * existed lack it.
   */
  sources?: CoverageSource[];
}

export const COVERAGE_SOURCE_KINDS = ['built_in', 'feed', 'connector', 'analyst'] as const;
export type CoverageSourceKind = (typeof COVERAGE_SOURCE_KINDS)[number];
export const COVERAGE_SOURCE_STATUSES = ['consulted', 'skipped', 'disabled', 'failed'] as const;
export type CoverageSourceStatus = (typeof COVERAGE_SOURCE_STATUSES)[number];
/** A consulted source's own reading of the entity, as Cortex's per-analyzer levels. */
export const SOURCE_READINGS = ['malicious', 'suspicious', 'benign', 'no_opinion'] as const;
export type SourceReading = (typeof SOURCE_READINGS)[number];

export interface CoverageSource {
  /** A built-in tool's name, a feed's (`FEODO`), a connector's (`abuseipdb`) or `analyst`. */
  name: string;
  kind: CoverageSourceKind;
  status: CoverageSourceStatus;
  /** Why it was skipped, disabled or failed (and, for a consulted one, a caveat: stale, cached). */
  reason?: string;
  /** Consulted sources only. */
  reading?: SourceReading;
}

export interface IntelCoverage {
  /** Connector names (`abuseipdb`...) that answered, from the network or the cache. */
  answered: string[];
  /** Those of `answered` served from the cache. */
  cached: string[];
  skipped: string[];
  failed: string[];
}

export interface Report {
  summary: string;
  risk_score: number;
  verdict: Verdict;
  /** From the number of independent sources behind the verdict (scoring.ts confidenceFor). */
  confidence: Confidence;
  persona: PersonaName;
  /** The investigated entity first, then related ones discovered. */
  entities: ReportEntity[];
  /** Strongest first. */
  findings: Finding[];
  recommendations: string[];
  coverage: Coverage;
  /**
   * How the findings make the risk score and the verdict (scoring.ts explainScore). buildReport always
   * sets it; reports stored before it existed lack it.
   */
  score_explanation?: ScoreExplanation;
  /** Bedrock analyst mode only (docs/analyst.md): who wrote the narrative, usage and cost. */
  analyst?: AnalystSection;
  /**
   * A user or host with evidence against it, in words: compromised, targeted or at_risk
   * (report/asset-wording.ts); absent for IPs and domains, which keep the verdict's words.
   */
  assessment?: EntityAssessment;
}

/** A user's or host's judgement in words (the verdict enum stays the contract's). */
export const ENTITY_ASSESSMENTS = ['compromised', 'targeted', 'at_risk'] as const;
export type EntityAssessment = (typeof ENTITY_ASSESSMENTS)[number];

// ---- The score's explanation (computed by investigation/scoring.ts) ----

export interface ScoreContribution {
  finding_id: string;
  title: string;
  source_tool: ToolName;
  score: number;
  /** Points of the risk score this finding added, taken strongest first; they sum to the risk. */
  points: number;
}

export interface SourceContribution {
  source_tool: ToolName;
  findings: number;
  /** The risk this source's findings alone would give. */
  alone: number;
  /** Sum of its findings' points. */
  points: number;
}

/** Evidence a report does not count, or counts for less, and why (investigation/verdict.ts). */
export interface DiscountedFinding {
  finding_id: string;
  title: string;
  source_tool: ToolName;
  /** The score it would have had. */
  score: number;
  /** The score it counts with (0 when left out entirely). */
  counted: number;
  reason: string;
}

export interface ScoreExplanation {
  method: 'noisy_or';
  formula: string;
  risk_score: number;
  verdict: Verdict;
  /** Why the verdict follows from the risk, the benign evidence and the coverage, in one sentence. */
  verdict_reason: string;
  confidence: Confidence;
  /** The independent sources behind the verdict (evidence_source, else the tool). */
  verdict_sources: string[];
  /** Findings that moved the score (score > 0), strongest first. */
  contributions: ScoreContribution[];
  /** Per tool or intelligence source, most points first. */
  sources: SourceContribution[];
  /** Evidence not counted (or counted for less), and why: counted once, context, circular. */
  discounted: DiscountedFinding[];
}

// ---- The analyst's section of the report (written by analyst/report-section.ts) ----

export const FALLBACK_REASONS = [
  'model_error',
  'model_timeout',
  'model_throttled',
  'malformed_tool_use',
  'max_tokens',
  'guardrail_intervened',
  'context_window_exceeded',
  'budget_exhausted',
  'no_report',
  'invalid_report',
  'narrative_contradicts_verdict',
  'analyst_step_failed',
] as const;
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

/**
 * `report.analyst`: who wrote the narrative (the model, or the rules engine as fallback), with the
 * conversation's usage and estimated cost. The risk score, verdict, findings and recommendations of
 * the report are the rules engine's in every case.
 */
export interface AnalystSection {
  mode: 'bedrock' | 'rules';
  configured_mode: 'bedrock';
  model_id: string;
  prompt_version: string | null;
  turns: number;
  tool_calls: number;
  input_tokens: number;
  output_tokens: number;
  estimated_cost_usd: number | null;
  price_source: string;
  fallback_reason?: FallbackReason;
  narrative: string;
  key_findings: string[];
  recommended_actions: string[];
  questions_for_human: string[];
  removed_indicators: string[];
}
