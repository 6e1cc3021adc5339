import { ACCESS_LIST } from '../../shared/api/generated/access-list';
import { config } from '../../shared/config';
import { authorizerHandler, unauthorized } from '../../shared/handlers/authorizer-handler';
import { logger } from '../../shared/observability';
import {
  consolePolicyRoutes,
  consoleVerifier,
  decideConsole,
  type TokenVerifier,
} from '../../shared/services/auth/console-authorizer';

// The schema-free access list keeps the route schemas (and full zod) out of this bundle.
const routes = consolePolicyRoutes(ACCESS_LIST);
let verifier: { cfg: unknown; verify: TokenVerifier | undefined } | undefined;

/**
 * API Gateway REST REQUEST authorizer of the console data routes (identity source Authorization).
 * Throwing `Unauthorized` makes API Gateway answer 401; a signed-in person outside the console groups
 * gets a Deny policy (403). Logs carry the reason and the subject, never the token.
 */
export const handler = authorizerHandler(async (event) => {
  const cfg = config();
  // Built once per configuration so the JWKS stays cached across invocations.
  if (verifier?.cfg !== cfg) verifier = { cfg, verify: consoleVerifier(cfg) };
  const outcome = await decideConsole(event, verifier.verify, routes);
  if (!outcome.ok) {
    logger.info('console token rejected', { reason: outcome.reason });
    throw unauthorized();
  }
  return outcome.result;
});
