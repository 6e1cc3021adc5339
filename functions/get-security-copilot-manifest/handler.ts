import { httpHandler } from '../../shared/api/http-handler';
import { securityCopilotManifest as manifest, manifestOptions } from '../../shared/api/plugin-manifests';
import { securityCopilotManifest } from '../../shared/api/routes/meta';

export const handler = httpHandler(securityCopilotManifest, async () => ({
  statusCode: 200,
  rawBody: manifest(manifestOptions()),
  headers: { 'content-type': 'application/yaml; charset=utf-8' },
}));
