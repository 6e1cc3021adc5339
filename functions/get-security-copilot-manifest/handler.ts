import { httpHandler } from '../../shared/api/http-handler';
import { manifestOptions } from '../../shared/api/plugin-manifests';
import * as routes from '../../shared/api/routes/meta';
import { securityCopilotManifest } from '../../shared/api/security-copilot-manifest';

export const handler = httpHandler(routes.securityCopilotManifest, async () => ({
  statusCode: 200,
  rawBody: securityCopilotManifest(manifestOptions()),
  headers: { 'content-type': 'application/yaml; charset=utf-8' },
}));
