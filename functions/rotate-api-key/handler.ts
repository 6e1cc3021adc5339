import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/keys';
import { apiKeyService } from '../../shared/services/auth/api-keys';

/** POST /api/v1/admin/keys/{key_id}/rotate: new secret, same key_id, previous secret kept for the grace period. */
export const handler = httpHandler(routes.rotateApiKey, async ({ params, body, caller }) => {
  const { summary, apiKey, gracePeriodEndsAt } = await apiKeyService().rotate(
    params.key_id,
    body,
    caller.keyId,
  );
  return {
    statusCode: 200,
    body: { ...summary, api_key: apiKey, grace_period_ends_at: gracePeriodEndsAt },
    headers: { 'cache-control': 'no-store' },
  };
});
