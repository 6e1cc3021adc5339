import { httpHandler } from '../../shared/api/http-handler';
import { compactInvestigationResult } from '../../shared/api/plugin-responses';
import * as routes from '../../shared/api/routes/investigations';
import { startInvestigation } from '../../shared/services/investigations/investigations';
import { lifecycleContext } from '../../shared/services/sessions/lifecycle-context';

/**
 * POST /api/v1/investigations/start (also under /api/v1/public/): creates the session and starts its
 * workflow run. Background → 202 at once; synchronous → 200 with the result, or 202 with the session
 * to poll when the wait bound (SIS_SYNC_WAIT_SECONDS and this Lambda's remaining time) passes first.
 */
export const handler = httpHandler(routes.startInvestigation, async ({ body, caller, headers, context }) => {
  const outcome = await startInvestigation(lifecycleContext(), caller, body, {
    idempotencyKey: headers['idempotency-key'],
    remainingTimeMs: context?.getRemainingTimeInMillis?.(),
  });
  return {
    statusCode: outcome.statusCode,
    body: compactInvestigationResult(outcome.body),
    headers: { 'cache-control': 'no-store', ...outcome.headers },
  };
});
