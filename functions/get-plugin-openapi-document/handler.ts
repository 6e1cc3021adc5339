import { httpHandler } from '../../shared/api/http-handler';
import { publishedPluginOpenApiDocument } from '../../shared/api/published-openapi';
import { pluginOpenApiDocument } from '../../shared/api/routes/meta';

export const handler = httpHandler(pluginOpenApiDocument, async () => ({
  statusCode: 200,
  body: publishedPluginOpenApiDocument(),
  headers: { 'cache-control': 'public, max-age=300' },
}));
