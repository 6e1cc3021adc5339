import { httpHandler } from '../../shared/api/http-handler';
import { publishedPluginOpenApiDocument } from '../../shared/api/published-openapi';
import * as routes from '../../shared/api/routes/meta';

export const handler = httpHandler(routes.pluginOpenApiDocument, async () => ({
  statusCode: 200,
  body: publishedPluginOpenApiDocument(),
  headers: { 'cache-control': 'public, max-age=300' },
}));
