import { httpHandler } from '../../shared/api/http-handler';
import { aiPluginManifest as manifest, manifestOptions } from '../../shared/api/plugin-manifests';
import { aiPluginManifest } from '../../shared/api/routes/meta';

export const handler = httpHandler(aiPluginManifest, async () => ({
  statusCode: 200,
  body: manifest(manifestOptions()),
}));
