import { perConfiguration } from '../../config';
import { stepFunctionsEngine, type WorkflowEngine } from '../../platform/workflow-engine';
import { documentClientFor } from '../../store/dynamo-client';
import { searchIndexRepositoryFromConfig } from '../../store/search-index-repository';
import type { SearchIndexing } from './search-indexing';
import { type SessionContext, sessionContext } from './session-context';

/**
 * What starting, cancelling and sweeping investigation runs work with: the session context, the
 * search index (every status change re-indexes the session) and the workflow engine that starts,
 * stops and describes runs. No intelligence runtime and no knowledge stores: those are the workflow
 * steps' (step-context.ts, investigation-context.ts), which in turn need no workflow engine.
 */
export interface LifecycleContext extends SessionContext, SearchIndexing {
  workflow: WorkflowEngine;
}

/** The lifecycle context of this process (one per cold start; rebuilt when tests reset the config). */
export const lifecycleContext = /* @__PURE__ */ perConfiguration(
  (cfg): LifecycleContext => ({
    ...sessionContext(),
    search: searchIndexRepositoryFromConfig(cfg, documentClientFor(cfg)),
    workflow: stepFunctionsEngine(cfg),
  }),
);
