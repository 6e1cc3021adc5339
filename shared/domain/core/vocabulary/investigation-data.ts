import type { Entity } from '../entity';
import type { AllowlistMatch, RiskBasisEntry } from '../evidence-basis';
import type { FeedsPort } from '../feed-port';
import type { OfflineIntel } from '../offline-intel';
import type { Tlp } from '../tlp';
import type { ToolName, ToolOutput, Verdict } from './tools-and-findings';

/** The data the tools read (implemented by shared/store), the intelligence port and what a tool runs with. */

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
  /** The edge seen from the investigated entity: `out` when it is the edge's `from` (graph.ts). */
  direction?: 'out' | 'in' | 'both';
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
  /** The review's own ID (`rv_`, time-ordered); absent on reviews kept before history. */
  review_id?: string;
  /** The reviewer's role then; absent on older reviews (tenant-knowledge/feedback.ts reviewerRoleOf). */
  by_role?: 'admin' | 'analyst';
  /** When it stops counting (null: never). */
  expires_at?: string | null;
  /** The analyst's review this admin review approves (tenant-knowledge/feedback.ts). */
  approves?: string | null;
}

/** `critical`: its outage stops the business (domain controllers, payment systems); `high`: it hurts. */
export const CRITICALITIES = ['critical', 'high'] as const;
export type Criticality = (typeof CRITICALITIES)[number];

/** What a report says of a critical asset (tenant-knowledge/critical-assets.ts is the admin's record). */
export interface CriticalAssetNote {
  criticality: Criticality;
  /** Who to coordinate containment with (free text). */
  owner: string;
  reason: string;
}

/** What the tenant itself says about an entity: allowlist entries covering it, feedback, newest first. */
export interface TenantKnowledge {
  allowlist: AllowlistMatch[];
  feedback: FeedbackRecord[];
  /** A host or user an admin declared critical. */
  critical_asset?: CriticalAssetNote;
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
  /** Whether an admin marked the entity "do not share" tenant-wide: then no lookup is sent. */
  doNotShare?(entity: Entity): Promise<boolean>;
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
