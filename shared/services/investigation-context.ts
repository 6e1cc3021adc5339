import { type Config, config } from '../config';
import type { Entity } from '../domain/entity';
import type { IntelPort, InvestigationData, Report, ToolCall } from '../domain/investigation/types';
import { termsForSession } from '../domain/search-terms';
import { logger } from '../observability';
import { stepFunctionsEngine, type WorkflowEngine } from '../platform/workflow-engine';
import { documentClientFor } from '../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../store/graph-repository';
import { incidentsRepositoryFromConfig } from '../store/incidents-repository';
import { investigationData } from '../store/investigation-data';
import {
  type SearchIndexRepository,
  searchIndexRepositoryFromConfig,
} from '../store/search-index-repository';
import type { HistoryEntry, SessionRecord } from '../store/sessions-repository';
import { SessionsRepository } from '../store/sessions-repository';
import { tableName } from '../store/tables';
import { intelLookupsFromConfig } from './intel-lookups';

/**
 * What the investigation service and the workflow steps work with: the stores, the workflow engine,
 * the tools' data port and the clock. Built once per cold start from the configuration; tests pass
 * their own.
 */
export interface InvestigationContext {
  cfg: Config;
  sessions: SessionsRepository;
  graph: GraphRepository;
  search: SearchIndexRepository;
  workflow: WorkflowEngine;
  data: InvestigationData;
  /** The intelligence connectors' runtime; absent in contexts built by tests without connectors. */
  intel?: IntelPort;
  now: () => Date;
}

let shared: InvestigationContext | undefined;

export function investigationContext(): InvestigationContext {
  const cfg = config();
  if (shared?.cfg !== cfg) {
    const doc = documentClientFor(cfg);
    const sessions = new SessionsRepository(doc, tableName(cfg, 'sessions'));
    const graph = graphRepositoryFromConfig(cfg, doc);
    shared = {
      cfg,
      sessions,
      graph,
      search: searchIndexRepositoryFromConfig(cfg, doc),
      workflow: stepFunctionsEngine(cfg),
      data: investigationData({
        graph,
        incidents: incidentsRepositoryFromConfig(cfg, doc),
        sessions,
        publicUrl: cfg.SIS_PUBLIC_URL,
      }),
      intel: intelLookupsFromConfig(cfg, doc),
      now: () => new Date(),
    };
  }
  return shared;
}

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

// ---- Search index ----

/** Re-indexes the session for search with its current status and report. */
export async function indexForSearch(ctx: InvestigationContext, session: SessionRecord): Promise<void> {
  const report = reportOf(session);
  const entity = subjectOf(session);
  await ctx.search.indexSession(
    {
      session_id: session.session_id,
      owner_key_id: session.owner_key_id,
      status: session.status,
      entity,
      persona: session.persona,
      created_at: session.created_at,
      risk_score: report?.risk_score ?? null,
      verdict: report?.verdict ?? null,
      summary: report?.summary ?? null,
    },
    termsForSession({
      entity,
      status: session.status,
      verdict: report?.verdict ?? null,
      persona: session.persona,
      summary: report?.summary ?? null,
      findings: report?.findings ?? [],
      entities: (report?.entities ?? []).filter((e) => e.role === 'related'),
    }),
  );
}

/**
 * Search is a secondary view: a failure to update it must not fail the lifecycle change that
 * triggered it (the next change re-indexes the session).
 */
export async function indexForSearchQuietly(
  ctx: InvestigationContext,
  session: SessionRecord,
): Promise<void> {
  try {
    await indexForSearch(ctx, session);
  } catch (error) {
    logger.warn('search index update failed', { session_id: session.session_id, error: error as Error });
  }
}
