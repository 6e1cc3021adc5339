import { type Command, Option } from 'commander';
import { globals, withExamples } from '../context';
import { EXIT } from '../errors';
import { OPERATIONS } from '../generated/api';
import { printJson, printText } from '../output';
import { resolveTarget } from '../profiles';

/** The assistant platforms `sis mcp config` writes a snippet for (docs/mcp.md has one section each). */
export const MCP_CLIENTS = ['vscode', 'cursor', 'claude-code', 'copilot-studio', 'openai'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/**
 * VS Code's and Cursor's own variable syntax (`${input:…}`, `${env:…}`), which their config files
 * expand: written literally, not a template string.
 */
const clientVariable = (name: string) => `\${${name}}`;

/** The server's name in the assistants' configuration. */
const SERVER_NAME = 'security-investigations';

/**
 * The snippet that connects `client` to the MCP endpoint at `apiUrl`. The key itself is never
 * printed: each snippet reads it from where that client reads secrets (a VS Code password prompt,
 * the SIS_API_KEY environment variable), so the output can be pasted, shared or logged.
 */
export function mcpClientConfig(client: McpClient, apiUrl: string): { text: string; json?: unknown } {
  const url = `${apiUrl.replace(/\/+$/, '')}${OPERATIONS.mcp.path}`;
  switch (client) {
    case 'vscode': {
      const json = {
        inputs: [{ type: 'promptString', id: 'sis-api-key', description: 'SIS API key', password: true }],
        servers: {
          [SERVER_NAME]: { type: 'http', url, headers: { 'X-API-Key': clientVariable('input:sis-api-key') } },
        },
      };
      return { json, text: `// .vscode/mcp.json\n${JSON.stringify(json, null, 2)}` };
    }
    case 'cursor': {
      const json = {
        mcpServers: { [SERVER_NAME]: { url, headers: { 'X-API-Key': clientVariable('env:SIS_API_KEY') } } },
      };
      return {
        json,
        text: `// ~/.cursor/mcp.json (SIS_API_KEY set in the environment)\n${JSON.stringify(json, null, 2)}`,
      };
    }
    case 'claude-code':
      return {
        text: `claude mcp add --transport http ${SERVER_NAME} ${url} --header "X-API-Key: $SIS_API_KEY"`,
      };
    case 'copilot-studio':
      return {
        text: [
          'Copilot Studio → Tools → Add a tool → Model Context Protocol:',
          `  Server URL:      ${url}`,
          '  Transport:       Streamable HTTP',
          '  Authentication:  API key, in a header named X-API-Key (paste the key when the connection asks)',
        ].join('\n'),
      };
    case 'openai': {
      const json = {
        type: 'mcp',
        server_label: SERVER_NAME.replace(/-/g, '_'),
        server_url: url,
        headers: { 'X-API-Key': '<your SIS API key, e.g. from SIS_API_KEY>' },
        require_approval: 'never',
      };
      return { json, text: `// one entry of the Responses API's "tools"\n${JSON.stringify(json, null, 2)}` };
    }
  }
}

/** `sis mcp config --client …`: the snippet for the current profile's URL. */
export function addMcpCommands(program: Command): void {
  const mcp = program.command('mcp').description('Connect an MCP assistant to this service');
  withExamples(mcp, ['sis mcp config --client vscode']);
  withExamples(
    mcp
      .command('config')
      .description(
        "Print the configuration snippet that connects an assistant to this profile's MCP endpoint",
      )
      .addOption(
        new Option('--client <client>', 'the assistant platform').choices(MCP_CLIENTS).makeOptionMandatory(),
      ),
    ['sis mcp config --client vscode', 'sis mcp config --client claude-code --profile prod'],
  ).action((flags: { client: McpClient }, command: Command) => {
    const { profile, json } = globals(command);
    const target = resolveTarget({ profile });
    const snippet = mcpClientConfig(flags.client, target.apiUrl);
    if (json) printJson(snippet.json ?? { text: snippet.text });
    else printText(snippet.text);
    process.exitCode = EXIT.ok;
  });
}
