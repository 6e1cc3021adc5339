/** Shapes of the console data routes' answers (see docs/console.md and the OpenAPI document). */
export type EntityType = 'ip' | 'user' | 'host' | 'domain';
export interface Entity {
  type: EntityType;
  value: string;
}
export type SessionStatus = 'initialized' | 'active' | 'completed' | 'failed' | 'canceled';
export const TERMINAL_STATUSES: readonly SessionStatus[] = ['completed', 'failed', 'canceled'];

export interface Me {
  username: string;
  email?: string;
  role: 'admin' | 'analyst';
  groups: string[];
}

export interface SessionListItem {
  session_id: string;
  status: SessionStatus;
  entity: Entity;
  persona: string;
  risk_score: number | null;
  verdict: string | null;
  summary: string | null;
  created_at: string;
  owner: { kind: 'key' | 'user'; id: string };
}

export interface SessionSummary {
  session_id: string;
  status: SessionStatus;
  entity: Entity;
  persona: string;
  created_at: string;
  updated_at: string;
  completed_at?: string;
  failure_reason?: string;
  risk_score?: number;
  verdict?: string;
}

export interface HistoryMessage {
  message_id: string;
  role: 'assistant' | 'user' | 'system';
  content: string;
  created_at: string;
}
export interface HistoryEvent {
  event_id: string;
  type: string;
  detail: Record<string, unknown>;
  created_at: string;
}
export interface ToolCall {
  tool_call_id: string;
  name: string;
  input: { entity: Entity };
  status: 'succeeded' | 'failed' | 'timed_out';
  error?: string;
  started_at: string;
  duration_ms: number;
}
export interface SessionHistory {
  session: SessionSummary;
  messages: HistoryMessage[];
  events: HistoryEvent[];
  tool_calls: ToolCall[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface Finding {
  finding_id: string;
  title: string;
  description: string;
  impact: string;
  severity: 'info' | 'low' | 'medium' | 'high' | 'critical';
  score: number;
  source_tool: string;
  category: string;
  evidence: string[];
  attack?: Array<{ id: string; name: string }>;
}
export interface ReportEntity extends Entity {
  role: 'investigated' | 'related';
  relationship?: string;
  evidence?: string[];
  /** Offline and intelligence facts about the investigated entity (ASN, country, mail provider...). */
  attributes?: Record<string, unknown>;
}
export interface ScoreExplanation {
  formula: string;
  verdict_reason: string;
  contributions: Array<{
    finding_id: string;
    title: string;
    source_tool: string;
    score: number;
    points: number;
  }>;
  sources: Array<{ source_tool: string; findings: number; alone: number; points: number }>;
}
export interface Report {
  summary: string;
  risk_score: number;
  verdict: string;
  persona: string;
  entities: ReportEntity[];
  findings: Finding[];
  recommendations: string[];
  coverage: { tools_run: number; tools_succeeded: number; tools_failed: string[]; tools_timed_out: string[] };
  score_explanation?: ScoreExplanation;
}
export interface ReportResponse {
  session_id: string;
  status: SessionStatus;
  entity: Entity;
  persona: string;
  report: Report | null;
  created_at: string;
  completed_at?: string;
  failure_reason?: string;
}

export interface Incident {
  incident_id: string;
  title: string;
  description?: string;
  severity: string;
  status: string;
  link: string;
  source: string;
  source_id?: string;
  source_url?: string;
  /** Who wrote the stored copy: a key's push, this deployment's pull, or the demo data. */
  origin?: { kind: 'push'; key_id: string } | { kind: 'pull'; connector: string } | { kind: 'demo' } | null;
  created_at: string;
  updated_at: string;
  entities: Entity[];
}

export interface GraphNeighbor extends Entity {
  relationship: string;
  direction?: 'out' | 'in' | 'both';
  first_seen: string;
  last_seen: string;
  count: number;
  evidence: string[];
  depth: number;
  via?: Entity;
}
export interface GraphAnswer {
  entity: Entity & {
    risk_score?: number;
    first_seen: string;
    last_seen: string;
    investigation_count: number;
    incident_count: number;
  };
  neighbors: GraphNeighbor[];
  next_cursor: string | null;
}

export interface ApiKey {
  key_id: string;
  key_prefix: string;
  name: string;
  description: string;
  scopes: string[];
  role: 'admin' | 'client';
  status: 'active' | 'disabled' | 'expired';
  expires_at: string;
  created_at: string;
  created_by: string;
  last_used_at: string | null;
  rotated_at: string | null;
  grace_period_ends_at: string | null;
  disabled_at: string | null;
}
export interface AuditEntry {
  at: string;
  action: string;
  key_id: string;
  actor: string;
  details?: Record<string, unknown>;
}
