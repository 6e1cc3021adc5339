import { perConfiguration } from '../../config';
import type { InvestigationData } from '../../domain/core/vocabulary';
import { documentClientFor } from '../../store/dynamo-client';
import { ToolResultsRepository } from '../../store/sessions/tool-results-repository';
import { onSessionsTable } from '../../store/sessions-table';
import { intelLookupsFromConfig } from '../intel/intel-lookups';
import type { ToolStepContext } from './step-run-tool';

/**
 * What the run-intel step works with: the tool results and the intelligence connectors' runtime (keys,
 * cache, quota, circuit breaker, HTTP). Its own module so that run-tool, which runs the built-in
 * tools, never bundles the connectors, their store, the HTTP client or Secrets Manager.
 */

const refuse = async (): Promise<never> => {
  throw new Error('The intelligence connector tools read no incidents, investigations or neighbourhood.');
};

/**
 * The connector tools send the indicator to their source and read none of the tenant's incidents or
 * investigations; of the graph they read only the looked-up entity's node, for its TLP (the intel
 * runtime's entityTlp), never a neighbourhood.
 */
const NO_TENANT_DATA: InvestigationData = {
  incidentsMentioning: refuse,
  priorInvestigations: refuse,
  neighbourhood: refuse,
  tenantKnowledge: refuse,
};

export const intelContext = /* @__PURE__ */ perConfiguration(
  (cfg): ToolStepContext => ({
    cfg,
    now: () => new Date(),
    toolResults: onSessionsTable(cfg, ToolResultsRepository),
    data: NO_TENANT_DATA,
    intel: intelLookupsFromConfig(cfg, documentClientFor(cfg)),
  }),
);
