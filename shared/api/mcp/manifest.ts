import { stringify } from 'yaml';
import {
  type ManifestOptions,
  PLUGIN_DISPLAY_NAME,
  PLUGIN_NAME_FOR_MODEL,
  PLUGIN_PATHS,
} from '../plugin-manifests';
import * as routes from '../routes/mcp';
import { DATA_NOT_INSTRUCTIONS, MCP_TOOLS } from './tools';

/**
 * The Security Copilot manifest of the MCP endpoint: Microsoft's `Format: MCP` skill group
 * (`Endpoint`, `UseStreamableHttp`, `UsePluginAuth`, `TimeoutInSeconds`, `AllowedTools`) with the same
 * API-key authorization as the API plugin's manifest. Microsoft's MCP plugin sample documents only
 * OAuth; docs/plugin.md says what to do if a workspace refuses API-key auth for an MCP skill group.
 * Its own name, so a workspace can hold both plugins.
 */
export function securityCopilotMcpManifestContent(options: ManifestOptions) {
  const url = options.publicUrl.replace(/\/+$/, '');
  return {
    Descriptor: {
      Name: `${PLUGIN_NAME_FOR_MODEL}MCP`,
      DisplayName: `${PLUGIN_DISPLAY_NAME} (MCP)`,
      Description: `The Security Investigation Service's five skills as MCP tools (${MCP_TOOLS.map((tool) => tool.name).join(', ')}), each needing the scope of its REST twin. ${DATA_NOT_INSTRUCTIONS}`,
      DescriptionDisplay:
        'Investigate entities, explore the knowledge graph, list incidents and search investigations over MCP.',
      Icon: `${url}${PLUGIN_PATHS.logo}`,
      SupportedAuthTypes: ['ApiKey'],
      Authorization: { Type: 'APIKey', Key: 'X-API-Key', Location: 'Header', AuthScheme: '' },
    },
    SkillGroups: [
      {
        Format: 'MCP',
        Settings: {
          Endpoint: `${url}${routes.mcp.path}`,
          UseStreamableHttp: true,
          UsePluginAuth: true,
          // The gateway's 29 s integration time-out bounds every call (investigate_entity then hands back a session).
          TimeoutInSeconds: routes.mcp.timeoutSeconds,
          AllowedTools: MCP_TOOLS.map((tool) => tool.name),
        },
      },
    ],
  };
}

/** The manifest as served (YAML; `yaml` stays in the one function that serves it). */
export function securityCopilotMcpManifest(options: ManifestOptions): string {
  return stringify(securityCopilotMcpManifestContent(options));
}
