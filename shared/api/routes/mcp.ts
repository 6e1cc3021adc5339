import { defineRoute } from '../route-types';

/**
 * The Model Context Protocol endpoint (docs/mcp.md): JSON-RPC 2.0 over Streamable HTTP, stateless and
 * JSON-only. Any valid API key reaches it; each tool checks the scope of its REST twin
 * (shared/api/mcp/tools.ts), so the key's scopes decide which tools it lists and may call. The body
 * is JSON-RPC, read by the MCP SDK, not by the route's schemas.
 */
export const mcp = /* @__PURE__ */ defineRoute({
  operationId: 'mcp',
  method: 'POST',
  path: '/api/v1/mcp',
  access: { kind: 'key' },
  functionName: 'mcp',
  summary: 'Model Context Protocol endpoint',
  description:
    'Streamable HTTP MCP server (JSON responses, no sessions) for assistant platforms: the tools investigate_entity, get_investigation, query_knowledge_graph, list_recent_incidents and search_investigations, each needing the scope of its REST twin. Protocol revisions 2025-06-18, 2025-11-25 (initialize) and 2026-07-28 (server/discover). GET and DELETE answer 405.',
  tags: ['mcp'],
  request: {},
  responses: {
    200: { description: 'A JSON-RPC response' },
    202: { description: 'A notification, accepted' },
    // The SDK answers a body that is no JSON-RPC message with a JSON-RPC error (-32700, -32600), not
    // the REST error shape.
    400: { description: 'Not a JSON-RPC message: a JSON-RPC error' },
  },
  // The synchronous investigate_entity waits within the API Gateway integration's 29 s.
  timeoutSeconds: 30,
});

/**
 * GET and DELETE reach the same function so they answer 405 (Allow: POST) as the Streamable HTTP
 * transport says a server without SSE streams or sessions must, instead of the gateway's 404.
 */
const methodNotAllowed = (method: 'GET' | 'DELETE') =>
  defineRoute({
    ...mcp,
    operationId: method === 'GET' ? 'mcpGet' : 'mcpDelete',
    method,
    summary: `${method} on the MCP endpoint: 405`,
    description: 'This MCP server holds no stream and no session: always 405 with Allow: POST.',
    responses: { 405: { description: 'Method not allowed' } },
  });

export const mcpGet = /* @__PURE__ */ methodNotAllowed('GET');
export const mcpDelete = /* @__PURE__ */ methodNotAllowed('DELETE');

export const securityCopilotMcpManifest = /* @__PURE__ */ defineRoute({
  operationId: 'getSecurityCopilotMcpManifest',
  method: 'GET',
  path: '/plugin/security-copilot-mcp.yaml',
  access: { kind: 'public' },
  functionName: 'get-mcp-manifest',
  summary: 'Microsoft Security Copilot MCP plugin manifest (YAML)',
  description:
    'The Security Copilot manifest of the MCP endpoint: a Format: MCP skill group (Endpoint, UseStreamableHttp, UsePluginAuth) with the API key in the X-API-Key header.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'The manifest as YAML' } },
});

export const mcpRoutes = [mcp, mcpGet, mcpDelete, securityCopilotMcpManifest] as const;
