import type { Tool } from '../../core/vocabulary';
import { domainAnalysis } from './tool-domain-analysis';
import { feedsTool } from './tool-feeds';
import { graphNeighbourhood, incidentHistory, priorInvestigations } from './tool-history';
import { accountAnalysis, hostAnalysis } from './tool-identity';
import { ipClassification } from './tool-ip-classification';

/**
 * The tools the service runs itself, in report order: entity-specific analysis first, then history.
 * The workflow's run-tool step carries these (with the offline enrichment data they read) and not
 * the intelligence connectors, which run in their own step (tool-intel.ts, step-run-intel).
 */
export const BUILT_IN_TOOLS: readonly Tool[] = [
  ipClassification,
  domainAnalysis,
  accountAnalysis,
  hostAnalysis,
  incidentHistory,
  priorInvestigations,
  graphNeighbourhood,
  feedsTool,
];
