import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/keys';
import { apiKeyService } from '../../shared/services/auth/api-keys';

/** POST /api/v1/console/admin/keys: the secret appears in this response only; the actor is the person. */
export const handler = httpHandler(routes.createConsoleKey, async ({ body, caller }) => {
  const { summary, apiKey } = await apiKeyService().create(body, caller.keyId);
  return { statusCode: 201, body: { ...summary, api_key: apiKey }, headers: { 'cache-control': 'no-store' } };
});
