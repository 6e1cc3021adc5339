import { httpHandler } from '../../shared/api/http-handler';
import { openApiDocumentFor } from '../../shared/api/openapi-cache';
import { pluginOpenApiDocument } from '../../shared/api/routes/meta';

export const handler = httpHandler(pluginOpenApiDocument, async () => ({
  statusCode: 200,
  body: openApiDocumentFor('plugin'),
  headers: { 'cache-control': 'public, max-age=300' },
}));
