import type { Entity } from '../entity';
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

const INTEL_TOOL_NAMES = new Set<string>(INTEL_TOOLS.map((tool) => tool.name));

/**
 * The tools to run for this entity, in report order; the workflow maps over this list. An
 * intelligence tool is planned only when its connector is configured (`intelEnabled`), so a
 * deployment without connectors runs exactly the built-in tools.
 */
export function toolsFor(
  entity: Entity,
  intelEnabled: (connector: string) => boolean = () => false,
): ToolName[] {
  return TOOLS.filter(
    (tool) =>
      tool.appliesTo(entity) &&
      (!INTEL_TOOL_NAMES.has(tool.name) || intelEnabled(tool.name.slice('intel_'.length))),
  ).map((tool) => tool.name);
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
