import { perConfiguration } from '../../config';
import { documentClientFor } from '../../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../../store/graph-repository';
import { SearchIndexingRepository } from '../../store/search-index/indexing-repository';
import { ToolResultsRepository } from '../../store/sessions/tool-results-repository';
import { VerdictsRepository } from '../../store/sessions/verdicts-repository';
import { onSessionsTable } from '../../store/sessions-table';
import type { SearchIndexing } from '../sessions/search-indexing';
import { type SessionContextWith, sessionWritingContext } from '../sessions/session-context';

/**
 * What the workflow steps that record a run's outcome work with (persist, the failure write-back):
 * the session context with the tool results and the verdicts (persist reads the one and records
 * the other), the search index every status change re-indexes, and the knowledge graph the report's
 * edges go to. No workflow engine (no step starts or stops a run)
 * and no intelligence runtime: the steps that plan and run tools build their own
 * (investigation-context.ts).
 */
export interface StepContext
  extends SessionContextWith<'sessions' | 'toolResults' | 'verdicts'>,
    SearchIndexing {
  graph: GraphRepository;
}

/** The step context of this process (one per cold start; rebuilt when tests reset the config). */
export const stepContext = /* @__PURE__ */ perConfiguration((cfg): StepContext => {
  const doc = documentClientFor(cfg);
  return {
    ...sessionWritingContext(),
    toolResults: onSessionsTable(cfg, ToolResultsRepository, doc),
    verdicts: onSessionsTable(cfg, VerdictsRepository, doc),
    search: onSessionsTable(cfg, SearchIndexingRepository, doc),
    graph: graphRepositoryFromConfig(cfg, doc),
  };
});
