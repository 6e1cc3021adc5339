import type { AttackTechnique } from '../attack';
import type { Entity } from '../entity';

/** The words of an investigation: tools, findings, verdicts, tool calls and the engine's events. */

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
  /**
   * On findings of the graph and the incidents: when the run read them (its tool call's start). The
   * report is a point-in-time view; the console's live panels show the graph and incidents now.
   */
  as_of?: string;
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
