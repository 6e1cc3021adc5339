import type { AttackTechnique } from './attack';
import type { Entity } from './entity';
import type { AllowlistMatch, RiskBasisEntry } from './evidence-basis';
import type { FeedsPort } from './feed-port';
import type { OfflineIntel } from './offline-intel';
import type { Tlp } from './tlp';

/**
 * The vocabulary of an investigation, shared by the tools, the engine, the report, the store (which
 * implements `InvestigationData` and persists `ToolCall`s and events) and the workflow steps.
 * Nothing here knows about AWS.
 */

export const TOOL_NAMES = [
  'ip_classification',
  'domain_analysis',
  'account_analysis',
  'host_analysis',
  'incident_history',
  'prior_investigations',
  'graph_neighbourhood',
  // Matches against the public threat feeds compiled inside the tenant (shared/domain/feeds).
  'feeds',
  // One per threat-intelligence connector (shared/domain/intel/connectors.ts), planned only when the
  // connector is configured.
  'intel_abuseipdb',
  'intel_greynoise',
  'intel_internetdb',
  'intel_urlhaus',
  'intel_threatfox',
  'intel_otx',
  'intel_crowdsec',
  'intel_virustotal',
  'intel_misp',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * Position of a tool in report order, which is the order of TOOL_NAMES (the tool list, tools.ts,
 * follows it). Read from the names, not the tools, so ordering recorded calls (Assess) needs none
 * of the tools' code.
 */
export function toolOrder(name: string): number {
  return (TOOL_NAMES as readonly string[]).indexOf(name);
}

/** Whether a name is a tool's; read from the names alone, like toolOrder. */
export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

export const PERSONA_NAMES = ['SOC Analyst', 'CISO', 'Threat Hunter'] as const;
export type PersonaName = (typeof PERSONA_NAMES)[number];
export const DEFAULT_PERSONA: PersonaName = 'SOC Analyst';

export const FINDING_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

export const VERDICTS = ['benign', 'suspicious', 'malicious', 'unknown'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What a finding is about; personas and recommendations are driven by it. */
export const FINDING_CATEGORIES = [
  'context',
  'network_exposure',
  'suspicious_infrastructure',
  'impersonation',
  'privileged_identity',
  'critical_asset',
  'anomalous_naming',
  'incident_history',
  'prior_verdict',
  'association',
  /** The tenant's own word: an allowlist entry or an analyst's feedback (docs/tenant-knowledge.md). */
  'tenant_knowledge',
] as const;
export type FindingCategory = (typeof FINDING_CATEGORIES)[number];

export interface Finding {
  /** Stable within an investigation: `<tool>:<code>[:<discriminator>]`. */
  finding_id: string;
  title: string;
  /** Technical explanation for analysts. */
  description: string;
  /** The same finding in plain business language, without jargon (used by the CISO persona). */
  impact: string;
  severity: FindingSeverity;
  /** Contribution to the risk score, 0-100; the severity is derived from it. */
  score: number;
  source_tool: ToolName;
  category: FindingCategory;
  evidence: string[];
  /** MITRE ATT&CK techniques the finding points to (curated table in shared/domain/core/attack.ts). */
  attack?: AttackTechnique[];
  /** An intelligence source's own normalised verdict, on the findings of `intel_*` tools. */
  source_verdict?: Verdict;
  /** Positive evidence of benignness (score 0); only such a finding makes a report benign (verdict.ts). */
  benign?: true;
  /** The independent source it rests on (`feed:FEODO`, `tenant:allowlist`, `feedback`...): counted once. */
  evidence_source?: string;
  /** What a tool deliberately does not count (a prior verdict, a circular neighbour): would-be score, why. */
  discounted?: { score: number; reason: string };
}

/** How many independent sources stand behind a report's verdict (scoring.ts confidenceFor). */
export const CONFIDENCES = ['low', 'medium', 'high'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Facts = { [key: string]: JsonValue };
/** Attributes of an entity: short scalar values only (they are shown on the report's entity). */
export type Attributes = { [key: string]: string | number | boolean | null };

/**
 * How a tool found a related entity, read as `<investigated> <link> <other>`. Known graph
 * neighbours keep the relationship name the graph holds.
 */
export const DISCOVERED_LINKS = [
  'co_occurs_in_incident',
  'subdomain_of',
  'impersonates',
  'alias_of',
] as const;
export type DiscoveredLink = (typeof DISCOVERED_LINKS)[number];

export interface RelatedEntity {
  entity: Entity;
  /** A DiscoveredLink for what a tool found; the graph's own relationship name for known neighbours. */
  relationship: string;
  /** Incident or session IDs supporting the link. */
  evidence: string[];
  /** The link came from the knowledge graph itself, so it is not written back as a new edge. */
  known?: boolean;
}

export interface ToolOutput {
  facts: Facts;
  findings: Finding[];
  related: RelatedEntity[];
  /**
   * What the tool learned about the investigated entity itself (ASN, country, mail provider...),
   * shown as `attributes` on the report's investigated entity.
   */
  attributes?: Attributes;
  /** Set by a tool that answered from its cache; the engine moves it onto the ToolCall. */
  cache?: { age_seconds: number };
}

export const TOOL_CALL_STATUSES = ['succeeded', 'failed', 'timed_out', 'skipped'] as const;
/** `skipped`: the tool was deliberately not run (TLP, an internal indicator, quota, open circuit). */
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];

export interface ToolCall {
  tool_call_id: string;
  name: ToolName;
  input: { entity: Entity };
  /** null unless the tool succeeded. */
  output: ToolOutput | null;
  status: ToolCallStatus;
  /** Safe to show to the caller: never a stack trace or an internal error text. Why, when skipped. */
  error?: string;
  started_at: string;
  duration_ms: number;
  /** The answer was served from the connector cache, `cache_age_seconds` old. */
  cached?: boolean;
  cache_age_seconds?: number;
}

export const INVESTIGATION_EVENT_TYPES = [
  'tool_started',
  'tool_succeeded',
  'tool_failed',
  'tool_timed_out',
  'tool_skipped',
] as const;
export type InvestigationEventType = (typeof INVESTIGATION_EVENT_TYPES)[number];

/** An event as the engine emits it; the store gives it an `event_id` when it persists it. */
export interface InvestigationEvent {
  type: InvestigationEventType;
  detail: Facts;
  created_at: string;
}

// ---- Data the tools read, implemented by shared/store ----

export type IncidentSeverity = 'informational' | 'low' | 'medium' | 'high' | 'critical';

export interface IncidentSummary {
  incident_id: string;
  title: string;
  severity: IncidentSeverity;
  /** `new`, `active`, `resolved` or `closed`; resolved and closed incidents weigh a little less. */
  status: string;
  /** ISO 8601 (the SIEM's time). */
  created_at: string;
  link?: string;
  /** The incident's other entities, for co-occurrence links; may include the investigated one. */
  entities?: Entity[];
}

export interface PriorInvestigation {
  session_id: string;
  /** null for sessions that never reached a verdict (failed, canceled, running). */
  verdict: Verdict | null;
  risk_score: number | null;
  /** ISO 8601; when the verdict was reached (or the session last changed). */
  completed_at: string;
}

export interface Neighbour {
  entity: Entity;
  relationship: string;
  last_seen?: string;
  count?: number;
  /** Incident or session IDs on the edge. */
  evidence?: string[];
  /** The neighbour's own latest verdict and risk, when it has been investigated. */
  verdict?: Verdict | null;
  risk_score?: number | null;
  /** The neighbour node's TLP (the highest of the sessions that wrote it), when recorded. */
  tlp?: Tlp;
  /** What its risk rests on (scoring.ts riskBasisOf); absent on nodes scored before it existed. */
  risk_basis?: RiskBasisEntry[];
}

export type { AllowlistMatch, RiskBasisEntry } from './evidence-basis';

/** An analyst's feedback on an earlier session of the same entity. */
export interface FeedbackRecord {
  session_id: string;
  verdict: 'true_positive' | 'false_positive';
  comment: string;
  by: string;
  at: string;
  /** The reviewed session's verdict and risk when the feedback was given. */
  session_verdict?: Verdict | null;
  session_risk_score?: number | null;
}

/** What the tenant itself says about an entity: allowlist entries covering it, feedback, newest first. */
export interface TenantKnowledge {
  allowlist: AllowlistMatch[];
  feedback: FeedbackRecord[];
}

/**
 * Read access the tools need. Each method returns at most `limit` items, most relevant (newest)
 * first, and an empty array when nothing is known. Implementations should not throw for "not
 * found"; a thrown error is recorded as a failed tool call.
 */
export interface InvestigationData {
  incidentsMentioning(entity: Entity, limit: number): Promise<IncidentSummary[]>;
  /** Earlier sessions on the same entity (any owner: verdicts are tenant knowledge). */
  priorInvestigations(entity: Entity, limit: number): Promise<PriorInvestigation[]>;
  neighbourhood(entity: Entity, limit: number): Promise<Neighbour[]>;
  /** Unexpired allowlist entries covering the entity and analysts' feedback on its sessions. */
  tenantKnowledge(entity: Entity): Promise<TenantKnowledge>;
}

export interface DataLimits {
  incidents: number;
  priorInvestigations: number;
  neighbours: number;
}

export const DEFAULT_DATA_LIMITS: DataLimits = { incidents: 50, priorInvestigations: 20, neighbours: 50 };

/** One answer of an intelligence provider, from the network or the cache. */
export interface IntelLookup {
  answer: { status: number; body: unknown };
  cached: boolean;
  age_seconds: number;
}

/**
 * The connectors' runtime (shared/services/intel/intel-lookups.ts): configuration, cache, quota, circuit
 * breaker and HTTP. Throws ToolSkippedError when it deliberately does not call (quota, open circuit).
 */
export interface IntelPort {
  enabled(connector: string): boolean;
  /**
   * The entity's own TLP in the knowledge graph (the highest of the sessions that wrote its node),
   * undefined when it has none: a lookup is sent only if max(session TLP, this) allows it.
   */
  entityTlp?(entity: Entity): Promise<Tlp | undefined>;
  lookup(
    connector: string,
    entity: Entity,
    options: { signal: AbortSignal; refresh: boolean },
  ): Promise<IntelLookup>;
}

/** Who may be told about the entity, for the intelligence tools. */
export interface IntelOptions {
  intel?: IntelPort;
  tlp?: Tlp;
  /** Ask the providers afresh instead of using cached answers. */
  refreshIntel?: boolean;
  /** Domain/host/user suffixes the deployment names as internal: never sent to a third party. */
  internalSuffixes?: readonly string[];
}

/** What the caller of the engine provides. */
export interface ToolContext extends IntelOptions {
  data: InvestigationData;
  /** The running session, so prior_investigations does not count it. */
  sessionId?: string;
  /** Clock, for deterministic tests; defaults to the system clock. */
  now?: () => Date;
  limits?: Partial<DataLimits>;
  /** Offline enrichment data (ASN, country, mail lists); tools skip those facts without it. */
  offline?: OfflineIntel;
  /** The compiled public feeds (the `feeds` tool); the tool reports them unavailable without it. */
  feeds?: FeedsPort;
}

/** What a tool receives while it runs. */
export interface ToolRunContext extends IntelOptions {
  data: InvestigationData;
  sessionId?: string;
  now: Date;
  limits: DataLimits;
  /** Aborted when the engine gives up on the tool (timeout). */
  signal: AbortSignal;
  offline?: OfflineIntel;
  feeds?: FeedsPort;
}

/** What is said about a tool without running it (each tool's is in tool-catalogue.ts). */
export interface ToolDeclaration {
  name: ToolName;
  /** One line, shown in docs and to analysts. */
  description: string;
  appliesTo(entity: Entity): boolean;
}

export interface Tool extends ToolDeclaration {
  run(entity: Entity, ctx: ToolRunContext): Promise<ToolOutput>;
}

// ---- The report ----

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
}

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

// ---- The offline data port: offline-intel.ts (implemented by platform/offline-intel.ts) ----

export type { IpIntel, MailDomainIntel, OfflineDataSource, OfflineIntel } from './offline-intel';

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

export type {
  FeedIndex,
  FeedMatch,
  FeedsPort,
  IndicatorDetails,
  IndicatorMeta,
  IndicatorVia,
  LoadedFeed,
  LoadedFeeds,
} from './feed-port';
