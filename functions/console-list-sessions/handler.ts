import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { keysStore, listTenantSessions, tenantSessions } from '../../shared/services/console/console';

/** GET /api/v1/console/sessions?q=&limit=&cursor=: every session of the tenant, newest first. */
export const handler = httpHandler(routes.listConsoleSessions, async ({ query, caller }) => ({
  statusCode: 200,
  body: await listTenantSessions(tenantSessions(), keysStore(), caller, query),
  headers: { 'cache-control': 'no-store' },
}));
