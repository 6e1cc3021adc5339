import { documentClientFor } from '../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../store/graph-repository';
import { searchIndexRepositoryFromConfig } from '../store/search-index-repository';
import type { SearchIndexing } from './search-indexing';
import { type SessionContext, sessionContext } from './session-context';

/**
 * What the workflow steps that record a run's progress and outcome work with (assess, persist, the
 * failure write-back): the session context, the search index every status change re-indexes, and
 * the knowledge graph the report's edges go to. No workflow engine (no step starts or stops a run)
 * and no intelligence runtime: the steps that plan and run tools extend this
 * (investigation-context.ts).
 */
export interface StepContext extends SessionContext, SearchIndexing {
  graph: GraphRepository;
}

let shared: StepContext | undefined;

/** The step context of this process (one per cold start; rebuilt when tests reset the config). */
export function stepContext(): StepContext {
  const base = sessionContext();
  if (shared?.cfg !== base.cfg) {
    const doc = documentClientFor(base.cfg);
    shared = {
      ...base,
      search: searchIndexRepositoryFromConfig(base.cfg, doc),
      graph: graphRepositoryFromConfig(base.cfg, doc),
    };
  }
  return shared;
}
