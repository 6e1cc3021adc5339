import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/tenant-knowledge/tenant-knowledge';

/** DELETE /api/v1/admin/allowlist/{entry_id} and its console twin: 204, or 404 for no such entry. */
export const handler = twinRouteHandler(
  ...[routes.removeAllowlistEntry, routes.removeConsoleAllowlistEntry].map((route) => ({
    route,
    handler: httpHandler(route, async ({ params, caller }) => {
      await tenantKnowledgeService().removeEntry(caller, params.entry_id);
      return { statusCode: 204, rawBody: '' };
    }),
  })),
);
