import { httpHandler } from '../../shared/api/http-handler';
import { PLUGIN_LOGO_SVG } from '../../shared/api/plugin-manifests';
import * as routes from '../../shared/api/routes/meta';

export const handler = httpHandler(routes.pluginLogo, async () => ({
  statusCode: 200,
  rawBody: PLUGIN_LOGO_SVG,
  headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
}));
