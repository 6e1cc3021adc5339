import type { Entity } from '../entity';
import { CONNECTORS, connectorOfTool } from '../intel/connectors';
import { TOOL_NAMES, type ToolDeclaration, type ToolName } from './types';

/**
 * What the service says about each tool without running it: its name, the line shown in docs and
 * offered to the analyst model, and the entities it applies to. Planning a run (MarkActive) and
 * offering lookups to the model (AnalystTurn) read only this; the tools' code (tools.ts and the
 * tool-*.ts modules, which take their declaration from here) is carried by the step that runs
 * them. Listed in report order, the order of TOOL_NAMES.
 */

type BuiltInToolName = Exclude<ToolName, `intel_${string}`>;

const BUILT_IN: Record<BuiltInToolName, Omit<ToolDeclaration, 'name'>> = {
  ip_classification: {
    description:
      'Classifies an IP address by special-purpose range (private, CGNAT, documentation, bogon, tunnel...).',
    appliesTo: (entity) => entity.type === 'ip',
  },
  domain_analysis: {
    description:
      'Registrable domain, subdomain depth, label entropy, suspicious TLDs, IDN homographs and look-alikes of well-known brands.',
    appliesTo: (entity) => entity.type === 'domain',
  },
  account_analysis: {
    description:
      'Account naming (built-in, privileged, service, generic, machine) and incidents that mention the bare logon name.',
    appliesTo: (entity) => entity.type === 'user',
  },
  host_analysis: {
    description:
      'Host naming (domain controller, high-value server, jump host, default or offensive-distribution names) and incidents that mention the short name.',
    appliesTo: (entity) => entity.type === 'host',
  },
  incident_history: {
    description: 'Incidents that mention the entity, weighted by severity and recency; entities they share.',
    appliesTo: () => true,
  },
  prior_investigations: {
    description: 'Verdicts of earlier investigations of the same entity, the strongest recent one counting.',
    appliesTo: () => true,
  },
  graph_neighbourhood: {
    description: 'Neighbours in the knowledge graph and links to entities already judged high-risk.',
    appliesTo: () => true,
  },
};

/** The declaration of the tool of that name: a built-in one, or one per intelligence connector. */
export function declaredTool(name: ToolName): ToolDeclaration {
  const connectorName = connectorOfTool(name);
  if (connectorName) {
    const connector = CONNECTORS[connectorName];
    return {
      name,
      description: `${connector.title}: what the source knows about the indicator (docs/intel.md)`,
      appliesTo: (entity) => connector.entityTypes.includes(entity.type),
    };
  }
  return { name, ...BUILT_IN[name as BuiltInToolName] };
}

let declarations: readonly ToolDeclaration[] | undefined;

/** Every tool's declaration, in report order. */
export function toolDeclarations(): readonly ToolDeclaration[] {
  declarations ??= TOOL_NAMES.map(declaredTool);
  return declarations;
}

/**
 * The tools to run for this entity, in report order; the workflow maps over this list. An
 * intelligence tool is planned only when its connector is configured (`intelEnabled`), so a
 * deployment without connectors runs exactly the built-in tools.
 */
export function toolsFor(
  entity: Entity,
  intelEnabled: (connector: string) => boolean = () => false,
): ToolName[] {
  return toolDeclarations()
    .filter((tool) => {
      const connector = connectorOfTool(tool.name);
      return tool.appliesTo(entity) && (connector === undefined || intelEnabled(connector));
    })
    .map((tool) => tool.name);
}
