import { httpHandler } from '../../shared/api/http-handler';
import { securityCopilotMcpManifest } from '../../shared/api/mcp/manifest';
import { manifestOptions } from '../../shared/api/plugin-manifests';
import * as routes from '../../shared/api/routes/mcp';

export const handler = httpHandler(routes.securityCopilotMcpManifest, async () => ({
  statusCode: 200,
  rawBody: securityCopilotMcpManifest(manifestOptions()),
  headers: { 'content-type': 'application/yaml; charset=utf-8' },
}));
