import { type Config, perConfiguration } from '../../config';
import { isTerminal, type SessionStatus } from '../../domain/core/session-status';
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

/** Seconds a playbook is told to wait between polls (Retry-After): a rules run ends in well under it. */
export const POLL_RETRY_AFTER_SECONDS = 5;

/**
 * The headers of a 202 that hands back work to follow (the asynchronous request-reply pattern Logic
 * Apps' HTTP action follows): Location, the URL to poll, and Retry-After, the seconds between polls.
 * `path` is the poll route's path under the public URL (a session's poll with `async=true`, which
 * answers 202 until the session has ended, or a batch's status).
 */
export function pollHeaders(cfg: Config, path: string): { location: string; 'retry-after': string } {
  return {
    location: `${cfg.SIS_PUBLIC_URL.replace(/\/+$/, '')}${path}`,
    'retry-after': String(POLL_RETRY_AFTER_SECONDS),
  };
}

/**
 * The answer of a poll with `async=true`: 202 with Location and Retry-After while the session runs,
 * 200 without them once it has ended (and always 200 without `async`).
 */
export function pollStatus(
  cfg: Config,
  sessionId: string,
  status: SessionStatus,
  asynchronous: boolean,
): { statusCode: 200 | 202; headers: Record<string, string> } {
  if (!asynchronous || isTerminal(status)) return { statusCode: 200, headers: {} };
  return { statusCode: 202, headers: pollHeaders(cfg, sessionPollPath(sessionId)) };
}

/** The poll a playbook follows for one session: 202 while it runs, 200 with its history once ended. */
export function sessionPollPath(sessionId: string): string {
  return `/api/v1/public/sessions/${encodeURIComponent(sessionId)}?async=true`;
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
