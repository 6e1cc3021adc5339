import { perConfiguration } from '../../config';
import type { IntelPort, InvestigationData } from '../../domain/core/vocabulary';
import { documentClientFor } from '../../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../../store/graph-repository';
import { incidentsRepositoryFromConfig } from '../../store/incidents-repository';
import { investigationData } from '../../store/investigation-data';
import { tenantKnowledgeReadsFromConfig } from '../../store/knowledge/tenant-knowledge-reads';
import { type SessionContext, sessionContext } from '../sessions/session-context';

/**
 * What the workflow steps that run an investigation's tools work with (run-tool, run-intel): the
 * session context, the knowledge graph and the tools' data port; run-intel adds the intelligence
 * connectors' runtime (intel-context.ts), so run-tool never loads it. No
 * search index: running a tool changes no session status, so nothing is re-indexed. Built once per
 * cold start from the configuration; tests pass their own. The other functions build narrower contexts:
 * planning-context.ts (mark-active), session-context.ts (poll, report, STIX, assess, the analyst
 * turn), lifecycle-context.ts (start, cancel, the stale-session sweep), step-context.ts (the steps
 * that record a run's outcome).
 */
export interface InvestigationContext extends SessionContext {
  graph: GraphRepository;
  data: InvestigationData;
  /** The intelligence connectors' runtime: run-intel's context (intel-context.ts); absent elsewhere. */
  intel?: IntelPort;
}

export const investigationContext = /* @__PURE__ */ perConfiguration((cfg): InvestigationContext => {
  const base = sessionContext();
  const doc = documentClientFor(cfg);
  const graph = graphRepositoryFromConfig(cfg, doc);
  return {
    ...base,
    graph,
    data: investigationData({
      graph,
      incidents: incidentsRepositoryFromConfig(cfg, doc),
      sessions: base.sessions,
      knowledge: tenantKnowledgeReadsFromConfig(cfg, doc),
      publicUrl: cfg.SIS_PUBLIC_URL,
    }),
  };
});
