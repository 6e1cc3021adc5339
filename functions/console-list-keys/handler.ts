import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/keys';
import { apiKeyDirectory } from '../../shared/services/auth/api-keys';

/** GET /api/v1/console/admin/keys?search=: key summaries only, never a secret. */
export const handler = httpHandler(routes.listConsoleKeys, async ({ query }) => ({
  statusCode: 200,
  body: { keys: await apiKeyDirectory().list(query.search) },
  headers: { 'cache-control': 'no-store' },
}));
