import { type Config, perConfiguration } from '../../config';
import type { Entity } from '../../domain/core/entity';
import type { Report, ToolCall } from '../../domain/core/vocabulary';
import { documentClientFor } from '../../store/dynamo-client';
import { type HistoryEntry, type SessionRecord, SessionsRepository } from '../../store/sessions-repository';
import { tableName } from '../../store/tables';

/**
 * What every service that reads or changes an investigation session works with: the configuration,
 * the sessions store and the clock. The poll, the report and the STIX export need nothing more, so
 * their functions build only this (no workflow engine, no intelligence runtime, no other store):
 * each Lambda bundles only the clients its own work uses. Contexts that do more extend it
 * (lifecycle-context.ts for start and cancel, investigation-context.ts for the workflow steps).
 */
export interface SessionContext {
  cfg: Config;
  sessions: SessionsRepository;
  now: () => Date;
}

/** The session context of this process (one per cold start; rebuilt when tests reset the config). */
export const sessionContext = /* @__PURE__ */ perConfiguration(
  (cfg): SessionContext => ({
    cfg,
    sessions: new SessionsRepository(documentClientFor(cfg), tableName(cfg, 'sessions')),
    now: () => new Date(),
  }),
);

export function sessionUrl(cfg: Config, sessionId: string): string {
  return `${cfg.SIS_PUBLIC_URL.replace(/\/+$/, '')}/sessions/${encodeURIComponent(sessionId)}`;
}

/** The entity as stored on the session (always normalised before it was stored). */
export function subjectOf(session: SessionRecord): Entity {
  return session.entity as Entity;
}

export function reportOf(session: SessionRecord): Report | undefined {
  return session.report as Report | undefined;
}

// ---- History entries (the session's messages, events and tool calls) ----

export function message(at: Date | string, role: 'user' | 'assistant', content: string): HistoryEntry {
  return { kind: 'message', at: typeof at === 'string' ? at : at.toISOString(), body: { role, content } };
}

export function event(at: Date | string, type: string, detail: Record<string, unknown> = {}): HistoryEntry {
  return { kind: 'event', at: typeof at === 'string' ? at : at.toISOString(), body: { type, detail } };
}

export function toolCallEntry(call: ToolCall): HistoryEntry {
  return { kind: 'tool_call', at: call.started_at, body: call as unknown as Record<string, unknown> };
}
