import { perConfiguration } from '../../config';
import { stepFunctionsEngine, type WorkflowEngine } from '../../platform/workflow-engine';
import { documentClientFor } from '../../store/dynamo-client';
import { SearchIndexingRepository } from '../../store/search-index/indexing-repository';
import { IdempotencyRepository } from '../../store/sessions/idempotency-repository';
import { OpenSessionsRepository } from '../../store/sessions/open-sessions-repository';
import { ToolResultsRepository } from '../../store/sessions/tool-results-repository';
import { onSessionsTable } from '../../store/sessions-table';
import type { SearchIndexing } from './search-indexing';
import { type SessionContextWith, sessionWritingContext } from './session-context';

/**
 * What starting, cancelling and sweeping investigation runs work with: the session context with the
 * idempotency records (start), the tool results (a synchronous start's answer) and the open
 * sessions (the sweep), the search index (every status change re-indexes the session) and the
 * workflow engine that starts, stops and describes runs. No intelligence runtime and no knowledge
 * stores: those are the workflow steps' (step-context.ts, investigation-context.ts), which in turn
 * need no workflow engine.
 */
export interface LifecycleContext
  extends SessionContextWith<'sessions' | 'idempotency' | 'toolResults' | 'openSessions'>,
    SearchIndexing {
  workflow: WorkflowEngine;
}

/** The lifecycle context of this process (one per cold start; rebuilt when tests reset the config). */
export const lifecycleContext = /* @__PURE__ */ perConfiguration((cfg): LifecycleContext => {
  const doc = documentClientFor(cfg);
  return {
    ...sessionWritingContext(),
    idempotency: onSessionsTable(cfg, IdempotencyRepository, doc),
    toolResults: onSessionsTable(cfg, ToolResultsRepository, doc),
    openSessions: onSessionsTable(cfg, OpenSessionsRepository, doc),
    search: onSessionsTable(cfg, SearchIndexingRepository, doc),
    workflow: stepFunctionsEngine(cfg),
  };
});
