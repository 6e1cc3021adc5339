import { apiUrl } from '../base';

/** The MCP endpoint's path (DESIGN.md, fourth round: "MCP"; docs/mcp.md). */
const MCP_PATH = '/api/v1/mcp';
const SERVER_NAME = 'security-investigations';

/**
 * "Connect an assistant": the MCP endpoint's URL and the snippets of the platforms that take a
 * static header (the same ones `sis mcp config --client …` prints). No snippet holds a key: each
 * reads it where its platform keeps secrets, and the key comes from the form above.
 */
export function ConnectAssistantPanel() {
  const url = apiUrl(MCP_PATH);
  const vscode = {
    inputs: [{ type: 'promptString', id: 'sis-api-key', description: 'SIS API key', password: true }],
    servers: {
      [SERVER_NAME]: { type: 'http', url, headers: { 'X-API-Key': ['$', '{input:sis-api-key}'].join('') } },
    },
  };
  const cursor = {
    mcpServers: { [SERVER_NAME]: { url, headers: { 'X-API-Key': ['$', '{env:SIS_API_KEY}'].join('') } } },
  };
  return (
    <section class="panel connect-assistant" aria-labelledby="connect-heading">
      <h2 id="connect-heading">Connect an assistant</h2>
      <p>
        Assistants that speak the Model Context Protocol (VS Code, Cursor, Claude Code, Copilot Studio, the
        OpenAI Responses API, Security Copilot) reach the same five skills at <code>{url}</code> with a key in
        the <code>X-API-Key</code> header. A key lists and calls only the tools its scopes allow.
      </p>
      <h3>VS Code (.vscode/mcp.json)</h3>
      <pre>{JSON.stringify(vscode, null, 2)}</pre>
      <h3>Cursor (~/.cursor/mcp.json, SIS_API_KEY in the environment)</h3>
      <pre>{JSON.stringify(cursor, null, 2)}</pre>
      <h3>Claude Code</h3>
      <pre>{`claude mcp add --transport http ${SERVER_NAME} ${url} --header "X-API-Key: $SIS_API_KEY"`}</pre>
      <p>
        Security Copilot: upload{' '}
        <a href={apiUrl('/plugin/security-copilot-mcp.yaml')}>the MCP plugin manifest</a>. Other platforms:{' '}
        <code>sis mcp config --client copilot-studio|openai</code>.
      </p>
    </section>
  );
}
