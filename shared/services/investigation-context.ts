import type { IntelPort, InvestigationData } from '../domain/investigation/types';
import { documentClientFor } from '../store/dynamo-client';
import { incidentsRepositoryFromConfig } from '../store/incidents-repository';
import { investigationData } from '../store/investigation-data';
import { configuredConnectors, intelLookupsFromConfig } from './intel-lookups';
import { type SessionContext, sessionContext } from './session-context';
import { type StepContext, stepContext } from './step-context';

/**
 * What the workflow step that runs an investigation's tools works with (run-tool): the step context
 * plus the tools' data port and the intelligence connectors' runtime. Built once per cold start from
 * the configuration; tests pass their own. The other functions build narrower contexts:
 * planningContext below (mark-active), session-context.ts (poll, report, STIX, assess, the analyst
 * turn), lifecycle-context.ts (start, cancel, the stale-session sweep), step-context.ts (the steps
 * that record a run's outcome).
 */
export interface InvestigationContext extends StepContext {
  data: InvestigationData;
  /** The intelligence connectors' runtime; absent in contexts built by tests without connectors. */
  intel?: IntelPort;
}

let shared: InvestigationContext | undefined;

export function investigationContext(): InvestigationContext {
  const base = stepContext();
  if (shared?.cfg !== base.cfg) {
    const { cfg, sessions, graph } = base;
    const doc = documentClientFor(cfg);
    shared = {
      ...base,
      data: investigationData({
        graph,
        incidents: incidentsRepositoryFromConfig(cfg, doc),
        sessions,
        publicUrl: cfg.SIS_PUBLIC_URL,
      }),
      intel: intelLookupsFromConfig(cfg, doc),
    };
  }
  return shared;
}

/**
 * What planning a run works with (mark-active): the session and which intelligence connectors are
 * configured. Not their runtime: that reads keys from Secrets Manager, which planning never does.
 */
export interface PlanningContext extends SessionContext {
  intel?: Pick<IntelPort, 'enabled'>;
}

let planning: PlanningContext | undefined;

export function planningContext(): PlanningContext {
  const base = sessionContext();
  if (planning?.cfg !== base.cfg) planning = { ...base, intel: configuredConnectors(base.cfg) };
  return planning;
}
