import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/keys';
import { keyAuditTrail, keysStore } from '../../shared/services/console/console';

/** GET /api/v1/console/admin/audit?limit=&cursor=: key administration operations, newest first. */
export const handler = httpHandler(routes.listConsoleAudit, async ({ query, caller }) => ({
  statusCode: 200,
  body: await keyAuditTrail(keysStore(), caller, query),
  headers: { 'cache-control': 'no-store' },
}));
