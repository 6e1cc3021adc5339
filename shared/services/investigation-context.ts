import { perConfiguration } from '../config';
import type { IntelPort, InvestigationData } from '../domain/investigation/types';
import { documentClientFor } from '../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../store/graph-repository';
import { incidentsRepositoryFromConfig } from '../store/incidents-repository';
import { investigationData } from '../store/investigation-data';
import { configuredConnectors, intelLookupsFromConfig } from './intel-lookups';
import { type SessionContext, sessionContext } from './session-context';

/**
 * What the workflow step that runs an investigation's tools works with (run-tool): the session
 * context, the knowledge graph, the tools' data port and the intelligence connectors' runtime. No
 * search index: running a tool changes no session status, so nothing is re-indexed. Built once per
 * cold start from the configuration; tests pass their own. The other functions build narrower contexts:
 * planningContext below (mark-active), session-context.ts (poll, report, STIX, assess, the analyst
 * turn), lifecycle-context.ts (start, cancel, the stale-session sweep), step-context.ts (the steps
 * that record a run's outcome).
 */
export interface InvestigationContext extends SessionContext {
  graph: GraphRepository;
  data: InvestigationData;
  /** The intelligence connectors' runtime; absent in contexts built by tests without connectors. */
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
      publicUrl: cfg.SIS_PUBLIC_URL,
    }),
    intel: intelLookupsFromConfig(cfg, doc),
  };
});

/**
 * What planning a run works with (mark-active): the session and which intelligence connectors are
 * configured. Not their runtime: that reads keys from Secrets Manager, which planning never does.
 */
export interface PlanningContext extends SessionContext {
  intel?: Pick<IntelPort, 'enabled'>;
}

export const planningContext = /* @__PURE__ */ perConfiguration(
  (cfg): PlanningContext => ({ ...sessionContext(), intel: configuredConnectors(cfg) }),
);
