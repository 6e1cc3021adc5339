import { httpHandler } from '../../shared/api/http-handler';
import { aiPluginManifest, manifestOptions } from '../../shared/api/plugin-manifests';
import * as routes from '../../shared/api/routes/meta';

export const handler = httpHandler(routes.aiPluginManifest, async () => ({
  statusCode: 200,
  body: aiPluginManifest(manifestOptions()),
}));
