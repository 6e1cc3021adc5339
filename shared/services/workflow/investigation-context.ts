import { perConfiguration } from '../../config';
import type { IntelPort, InvestigationData } from '../../domain/core/vocabulary';
import { documentClientFor } from '../../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../../store/graph-repository';
import { incidentsRepositoryFromConfig } from '../../store/incidents-repository';
import { investigationData } from '../../store/investigation-data';
import { ToolResultsRepository } from '../../store/sessions/tool-results-repository';
import { VerdictsRepository } from '../../store/sessions/verdicts-repository';
import { onSessionsTable } from '../../store/sessions-table';
import { TenantKnowledgeReads } from '../../store/tenant-knowledge/tenant-knowledge-reads';
import type { SessionContext, SessionStores } from '../sessions/session-context';

/**
 * What the workflow steps that run an investigation's tools work with (run-tool, run-intel): the
 * configuration, the clock, the tool results, the knowledge graph and the tools' data port; run-intel
 * adds the intelligence connectors' runtime (intel-context.ts), so run-tool never loads it. No
 * session records (a tool step reads its input, not the session, and changes no status) and no
 * search index (nothing is re-indexed). Built once per cold start from the configuration; tests pass
 * their own. The other functions build narrower contexts: planning-context.ts (mark-active),
 * session-context.ts (poll, report, STIX), analysis-context.ts (assess, the analyst turn),
 * lifecycle-context.ts (start, cancel, the stale-session sweep), step-context.ts (the steps that
 * record a run's outcome).
 */
export interface InvestigationContext
  extends Pick<SessionContext, 'cfg' | 'now'>,
    Pick<SessionStores, 'toolResults'> {
  graph: GraphRepository;
  data: InvestigationData;
  /** The intelligence connectors' runtime: run-intel's context (intel-context.ts); absent elsewhere. */
  intel?: IntelPort;
}

export const investigationContext = /* @__PURE__ */ perConfiguration((cfg): InvestigationContext => {
  const doc = documentClientFor(cfg);
  const graph = graphRepositoryFromConfig(cfg, doc);
  return {
    cfg,
    now: () => new Date(),
    toolResults: onSessionsTable(cfg, ToolResultsRepository, doc),
    graph,
    data: investigationData({
      graph,
      incidents: incidentsRepositoryFromConfig(cfg, doc),
      verdicts: onSessionsTable(cfg, VerdictsRepository, doc),
      knowledge: onSessionsTable(cfg, TenantKnowledgeReads, doc),
      publicUrl: cfg.SIS_PUBLIC_URL,
    }),
  };
});
