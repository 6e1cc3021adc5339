import type { Entity } from '../../core/entity';
import { TOOL_NAMES, type ToolDeclaration, type ToolName } from '../../core/vocabulary';
import { CONNECTORS, connectorOfTool } from '../../intel/connectors';
import { type BuiltInToolName, builtInTool } from './built-in-tool-declarations';

/**
 * What the service says about each tool without running it: its name, the line shown in docs and
 * offered to the analyst model, and the entities it applies to. Planning a run (MarkActive) and
 * offering lookups to the model (AnalystTurn) read only this; the tools' code (tools.ts and the
 * tool-*.ts modules, which take their declaration from here or, for the built-in tools, from
 * built-in-tool-declarations.ts) is carried by the step that runs them. Listed in report order,
 * the order of TOOL_NAMES.
 */

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
  return builtInTool(name as BuiltInToolName);
}

let declarations: readonly ToolDeclaration[] | undefined;

/** Every tool's declaration, in report order. */
export function toolDeclarations(): readonly ToolDeclaration[] {
  declarations ??= TOOL_NAMES.map(declaredTool);
  return declarations;
}

/**
 * The tools to run for this entity, in report order; the workflow maps over this list. An
 * intelligence tool is planned only when its connector is configured (`intelEnabled`), and the
 * `feeds` tool only when the deployment enables at least one public feed (`feedsEnabled`), so a
 * deployment without either runs exactly the other built-in tools (and writes nothing more).
 */
export function toolsFor(
  entity: Entity,
  intelEnabled: (connector: string) => boolean = () => false,
  feedsEnabled = false,
): ToolName[] {
  return toolDeclarations()
    .filter((tool) => {
      const connector = connectorOfTool(tool.name);
      if (tool.name === 'feeds' && !feedsEnabled) return false;
      return tool.appliesTo(entity) && (connector === undefined || intelEnabled(connector));
    })
    .map((tool) => tool.name);
}
