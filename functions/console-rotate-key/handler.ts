import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/keys';
import { apiKeyService } from '../../shared/services/auth/api-keys';

/** POST /api/v1/console/admin/keys/{key_id}/rotate: new secret, same key_id; the actor is the person. */
export const handler = httpHandler(routes.rotateConsoleKey, async ({ params, body, caller }) => {
  const rotated = await apiKeyService().rotate(params.key_id, body, caller.keyId);
  return {
    statusCode: 200,
    body: { ...rotated.summary, api_key: rotated.apiKey, grace_period_ends_at: rotated.gracePeriodEndsAt },
    headers: { 'cache-control': 'no-store' },
  };
});
