import { perConfiguration } from '../../config';
import { documentClientFor } from '../../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../../store/graph-repository';
import { searchIndexRepositoryFromConfig } from '../../store/search-index-repository';
import type { SearchIndexing } from '../sessions/search-indexing';
import { type SessionContext, sessionContext } from '../sessions/session-context';

/**
 * What the workflow steps that record a run's progress and outcome work with (assess, persist, the
 * failure write-back): the session context, the search index every status change re-indexes, and
 * the knowledge graph the report's edges go to. No workflow engine (no step starts or stops a run)
 * and no intelligence runtime: the steps that plan and run tools build their own
 * (investigation-context.ts).
 */
export interface StepContext extends SessionContext, SearchIndexing {
  graph: GraphRepository;
}

/** The step context of this process (one per cold start; rebuilt when tests reset the config). */
export const stepContext = /* @__PURE__ */ perConfiguration((cfg): StepContext => {
  const doc = documentClientFor(cfg);
  return {
    ...sessionContext(),
    search: searchIndexRepositoryFromConfig(cfg, doc),
    graph: graphRepositoryFromConfig(cfg, doc),
  };
});
