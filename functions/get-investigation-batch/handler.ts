import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/batches';
import { batchReadContext, getInvestigationBatch } from '../../shared/services/investigations/batches';

/** GET /api/v1/investigations/batch/{batch_id}: the batch's status and its sessions' (starting key only). */
export const handler = httpHandler(routes.getInvestigationBatch, async ({ params, caller }) => ({
  statusCode: 200,
  body: await getInvestigationBatch(batchReadContext(), caller, params.batch_id),
  headers: { 'cache-control': 'no-store' },
}));
