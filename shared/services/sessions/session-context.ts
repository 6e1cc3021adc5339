import { type Config, perConfiguration } from '../../config';
import type { ToolCall } from '../../domain/core/vocabulary';
import type { AnalystStateRepository } from '../../store/sessions/analyst-state-repository';
import { HistoryRepository } from '../../store/sessions/history-repository';
import type { IdempotencyRepository } from '../../store/sessions/idempotency-repository';
import type { OpenSessionsRepository } from '../../store/sessions/open-sessions-repository';
import type { HistoryEntry } from '../../store/sessions/records';
import { SessionReader } from '../../store/sessions/session-reader';
import { SessionsRepository } from '../../store/sessions/session-repository';
import type { ToolResultsRepository } from '../../store/sessions/tool-results-repository';
import type { VerdictsRepository } from '../../store/sessions/verdicts-repository';
import { onSessionsTable } from '../../store/sessions-table';

/**
 * What every service that reads or changes an investigation session works with: the configuration,
 * the session records (read) and the clock. The report and the STIX export need nothing more, so
 * their functions build only this (no workflow engine, no intelligence runtime, no other store):
 * each Lambda bundles only the clients and repositories its own work uses. Contexts that do more
 * extend it with the repositories of the sessions table they use (`SessionStores`; `sessions` there
 * is the records with their writes: creation and status transitions): lifecycle-context.ts for start
 * and cancel, analysis-context.ts for assess and the analyst turn, investigation-context.ts for the
 * tools, step-context.ts for the steps that record a run's outcome, planning-context.ts for
 * mark-active.
 */
export interface SessionContext {
  cfg: Config;
  sessions: Pick<SessionReader, 'get'>;
  now: () => Date;
}

/** The sessions table's repositories (shared/store/sessions/). */
export interface SessionStores {
  /** The session records with their writes (create, transition), where the context's only read. */
  sessions: SessionsRepository;
  history: HistoryRepository;
  toolResults: ToolResultsRepository;
  analystState: AnalystStateRepository;
  idempotency: IdempotencyRepository;
  openSessions: OpenSessionsRepository;
  verdicts: VerdictsRepository;
}

/** A session context with the given repositories of the sessions table. */
export type SessionContextWith<K extends keyof SessionStores> = SessionContext & Pick<SessionStores, K>;

/** The session context of this process (one per cold start; rebuilt when tests reset the config). */
export const sessionContext = /* @__PURE__ */ perConfiguration(
  (cfg): SessionContext => ({
    cfg,
    sessions: onSessionsTable(cfg, SessionReader),
    now: () => new Date(),
  }),
);

/** The session context with the records' writes, for the functions that create or end sessions. */
export const sessionWritingContext = /* @__PURE__ */ perConfiguration(
  (cfg): SessionContextWith<'sessions'> => ({
    cfg,
    sessions: onSessionsTable(cfg, SessionsRepository),
    now: () => new Date(),
  }),
);

/** What the poll works with: the history, whose page carries the session record (one Query). */
export const pollContext = /* @__PURE__ */ perConfiguration(
  (cfg): Pick<SessionStores, 'history'> => ({ history: onSessionsTable(cfg, HistoryRepository) }),
);

export function sessionUrl(cfg: Config, sessionId: string): string {
  return `${cfg.SIS_PUBLIC_URL.replace(/\/+$/, '')}/sessions/${encodeURIComponent(sessionId)}`;
}

// ---- History entries (the session's messages, events and tool calls) ----

export function message(at: Date | string, role: 'user' | 'assistant', content: string): HistoryEntry {
  return { kind: 'message', at: typeof at === 'string' ? at : at.toISOString(), body: { role, content } };
}

export function event(at: Date | string, type: string, detail: Record<string, unknown> = {}): HistoryEntry {
  return { kind: 'event', at: typeof at === 'string' ? at : at.toISOString(), body: { type, detail } };
}

export function toolCallEntry(call: ToolCall): HistoryEntry {
  return { kind: 'tool_call', at: call.started_at, body: call };
}
