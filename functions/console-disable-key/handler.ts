import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/keys';
import { apiKeyService } from '../../shared/services/auth/api-keys';

/** POST /api/v1/console/admin/keys/{key_id}/disable: idempotent; the actor is the person. */
export const handler = httpHandler(routes.disableConsoleKey, async ({ params, caller }) => ({
  statusCode: 200,
  body: await apiKeyService().disable(params.key_id, caller.keyId),
  headers: { 'cache-control': 'no-store' },
}));
