import { httpHandler } from '../../shared/api/http-handler';
import { publishedFullOpenApiDocument } from '../../shared/api/published-openapi';
import * as routes from '../../shared/api/routes/meta';

export const handler = httpHandler(routes.openApiDocument, async () => ({
  statusCode: 200,
  body: publishedFullOpenApiDocument(),
  headers: { 'cache-control': 'public, max-age=300' },
}));
