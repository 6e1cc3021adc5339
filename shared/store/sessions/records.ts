import type { Conversation } from '../../domain/analyst/conversation';
import type { Entity } from '../../domain/core/entity';
import type { SessionStatus } from '../../domain/core/session-status';
import type { Report, ToolCall } from '../../domain/core/vocabulary';
import type { WorkflowType } from '../../domain/investigation/workflow-type';
import type { StartChannel } from '../../domain/keys/scopes';

/**
 * What the sessions table holds, as the services work with it (the items' layout is keys.ts): the
 * records carry the domain's types, so nothing that reads them casts.
 */
export interface SessionOptions {
  background: boolean;
  include_tool_calls: boolean;
  include_raw_results: boolean;
  /** Skip the intelligence connectors' cache for this investigation (fresh lookups). */
  refresh_intel?: boolean;
}

export interface SessionRecord {
  session_id: string;
  run_id: string;
  owner_key_id: string;
  /**
   * Who started it, by name: the person's console username, or the API key's name (key names never
   * change). Absent on sessions started before key names were recorded, and on a person's from
   * before usernames were.
   */
  owner_name?: string;
  /** The endpoint a key started it through when not the REST API (absent: the REST API or the console). */
  started_via?: StartChannel;
  /** The investigated entity, normalised before it was stored. */
  entity: Entity;
  persona: string;
  status: SessionStatus;
  created_at: string;
  updated_at: string;
  started_at?: string;
  completed_at?: string;
  failure_reason?: string;
  report?: Report;
  /** TLP 2.0 level of the investigation (absent on sessions recorded before TLP: amber). */
  tlp?: string;
  /** The report's verdict and risk score, kept on META for the poll (which does not read the report). */
  report_summary?: { verdict?: unknown; risk_score?: unknown };
  options: SessionOptions;
  /** The state machine its run was started on (absent on sessions from before Express: Standard). */
  workflow?: WorkflowType;
}

export type HistoryKind = 'message' | 'event' | 'tool_call';

interface HistoryEntryOf<K extends HistoryKind, B> {
  kind: K;
  /** ISO time the entry describes. */
  at: string;
  body: B;
}

/** One entry of a session's history: a message, an event or a tool call. */
export type HistoryEntry =
  | HistoryEntryOf<'message', { role: 'user' | 'assistant'; content: string }>
  | HistoryEntryOf<'event', { type: string; detail?: Record<string, unknown> }>
  | HistoryEntryOf<'tool_call', ToolCall>;

export type HistoryItem = HistoryEntry & { seq: number };

export interface ToolResultRecord {
  tool: string;
  /** The recorded tool call (status, timings, summary). */
  call: ToolCall;
  /** Full tool output, for the report and include_raw_results. */
  raw?: unknown;
  raw_truncated?: boolean;
}

export interface IdempotencyRecord {
  owner_key_id: string;
  idempotency_key: string;
  session_id: string;
  request_hash: string;
  created_at: string;
  expires_at_epoch: number;
}

export interface SubjectVerdict {
  session_id: string;
  verdict: string;
  risk_score: number;
  completed_at: string;
}

/** The analyst's conversation between model turns and the revision it was saved under. */
export interface AnalystState {
  revision: number;
  conversation: Conversation;
}

export interface PollPage {
  session: SessionRecord | undefined;
  history: HistoryItem[];
  /** More history exists after the last item returned. */
  truncated: boolean;
  /** DynamoDB requests made and read capacity consumed, for cost tracking. */
  requests: number;
  consumedReadUnits: number;
}

export type TransitionResult =
  | { ok: true; session: SessionRecord }
  | { ok: false; session: SessionRecord | undefined };
