import { httpHandler } from '../../shared/api/http-handler';
import { manifestOptions } from '../../shared/api/plugin-manifests';
import { securityCopilotManifest } from '../../shared/api/routes/meta';
import { securityCopilotManifest as manifest } from '../../shared/api/security-copilot-manifest';

export const handler = httpHandler(securityCopilotManifest, async () => ({
  statusCode: 200,
  rawBody: manifest(manifestOptions()),
  headers: { 'content-type': 'application/yaml; charset=utf-8' },
}));
