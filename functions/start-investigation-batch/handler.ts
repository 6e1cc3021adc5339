import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/batches';
import { batchContext, startInvestigationBatch } from '../../shared/services/investigations/batches';

/** POST /api/v1/investigations/batch: one background start per distinct entity (202, Location to poll). */
export const handler = httpHandler(routes.startInvestigationBatch, async ({ body, caller }) => {
  const outcome = await startInvestigationBatch(batchContext(), caller, body);
  return {
    statusCode: 202,
    body: outcome.body,
    headers: { 'cache-control': 'no-store', ...outcome.headers },
  };
});
