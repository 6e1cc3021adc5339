import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import {
  batchSessionsStore,
  keysStore,
  listTenantSessions,
  tenantSessions,
} from '../../shared/services/console/console';

/** GET /api/v1/console/sessions?q=&limit=&cursor=&batch_id=: every session of the tenant (or of a batch), newest first. */
export const handler = httpHandler(routes.listConsoleSessions, async ({ query, caller }) => ({
  statusCode: 200,
  body: await listTenantSessions(tenantSessions(), keysStore(), caller, query, batchSessionsStore()),
  headers: { 'cache-control': 'no-store' },
}));
