import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { startInvestigation } from '../../shared/services/investigations/investigations';
import { lifecycleContext } from '../../shared/services/sessions/lifecycle-context';

/** POST /api/v1/console/investigations: always in the background, owned by the signed-in person. */
export const handler = httpHandler(routes.startConsoleInvestigation, async ({ body, caller, headers }) => {
  const outcome = await startInvestigation(
    lifecycleContext(),
    caller,
    { ...body, background: true },
    { idempotencyKey: headers['idempotency-key'] },
  );
  return { statusCode: outcome.statusCode, body: outcome.body, headers: { 'cache-control': 'no-store' } };
});
