import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/keys';
import { apiKeyService } from '../../shared/services/auth/api-keys';

/** POST /api/v1/admin/keys/{key_id}/disable: idempotent; effective from the key's next request. */
export const handler = httpHandler(routes.disableApiKey, async ({ params, caller }) => ({
  statusCode: 200,
  body: await apiKeyService().disable(params.key_id, caller.keyId),
  headers: { 'cache-control': 'no-store' },
}));
