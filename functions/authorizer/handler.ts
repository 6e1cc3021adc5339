import { ACCESS_LIST } from '../../shared/api/generated/access-list';
import { authorizerHandler, unauthorized } from '../../shared/handlers/authorizer-handler';
import { logger, recordKeyDenial } from '../../shared/observability';
import { decide, keyAuthenticator } from '../../shared/services/auth/key-authorizer';

/**
 * API Gateway REST REQUEST authorizer (identity source X-API-Key; `Authorization: Bearer` accepted).
 * Throwing `Unauthorized` is the documented way to make API Gateway answer 401. Logs carry the key ID
 * and the reason, never the presented key.
 */
export const handler = authorizerHandler(async (event) => {
  const outcome = await decide(event, keyAuthenticator(), ACCESS_LIST);
  if (!outcome.ok) {
    logger.info('api key rejected', { reason: outcome.reason, key_id: outcome.keyId });
    // Lambda counts the throw below as an error; the alarm subtracts this count from it.
    recordKeyDenial(outcome.reason);
    throw unauthorized();
  }
  if (outcome.resources === 0) logger.info('api key has no allowed route', { key_id: outcome.keyId });
  else if (!outcome.inScope) {
    // The gateway answers 403; the log line lets an operator find a misconfigured integration.
    logger.info('api key refused: operation outside its scopes', {
      key_id: outcome.keyId,
      method: event.httpMethod,
      path: event.path,
    });
  }
  return outcome.result;
});
