import { ValidationError } from '../errors';
import { domainAnalysis } from './tool-domain-analysis';
import { graphNeighbourhood, incidentHistory, priorInvestigations } from './tool-history';
import { accountAnalysis, hostAnalysis } from './tool-identity';
import { INTEL_TOOLS } from './tool-intel';
import { ipClassification } from './tool-ip-classification';
import { TOOL_NAMES, type Tool, type ToolName } from './types';

/**
 * Every tool, in the order reports list them (TOOL_NAMES' order, types.ts): entity-specific analysis
 * first, then history, then the intelligence connectors.
 */
export const TOOLS: readonly Tool[] = [
  ipClassification,
  domainAnalysis,
  accountAnalysis,
  hostAnalysis,
  incidentHistory,
  priorInvestigations,
  graphNeighbourhood,
  ...INTEL_TOOLS,
];

const BY_NAME = new Map<string, Tool>(TOOLS.map((tool) => [tool.name, tool]));

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/** The tool of that name; throws ValidationError for an unknown name. */
export function getTool(name: string): Tool {
  const tool = BY_NAME.get(name);
  if (!tool) {
    throw new ValidationError(`Unknown tool "${name}".`, [
      { path: 'tool', message: `must be one of ${TOOL_NAMES.join(', ')}` },
    ]);
  }
  return tool;
}
