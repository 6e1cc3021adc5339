import { httpHandler } from '../../shared/api/http-handler';
import { openApiDocumentFor } from '../../shared/api/openapi-cache';
import { openApiDocument } from '../../shared/api/routes/meta';

export const handler = httpHandler(openApiDocument, async () => ({
  statusCode: 200,
  body: openApiDocumentFor('full'),
  headers: { 'cache-control': 'public, max-age=300' },
}));
