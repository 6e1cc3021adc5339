import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/tenant-knowledge/tenant-knowledge';

/**
 * DELETE /api/v1/admin/allowlist/{entry_id} and its console twin: 204, or 404 for no such entry.
 * Also DELETE /api/v1/admin/do-not-share/{entity_type}/{value} and its console twin: lowers the mark
 * (one function for all: the stack's resource budget).
 * Critical assets (/api/v1/admin/critical-assets and its console twin) are served here too.
 */
export const handler = twinRouteHandler(
  ...[routes.removeAllowlistEntry, routes.removeConsoleAllowlistEntry].map((route) => ({
    route,
    handler: httpHandler(route, async ({ params, caller }) => {
      await tenantKnowledgeService().removeEntry(caller, params.entry_id);
      return { statusCode: 204, rawBody: '' };
    }),
  })),
  ...[routes.lowerDoNotShare, routes.lowerConsoleDoNotShare].map((route) => ({
    route,
    handler: httpHandler(route, async ({ params, caller }) => {
      await tenantKnowledgeService().lowerDoNotShare(caller, params.entity_type, params.value);
      return { statusCode: 204, rawBody: '' };
    }),
  })),
  ...[routes.removeCriticalAsset, routes.removeConsoleCriticalAsset].map((route) => ({
    route,
    handler: httpHandler(route, async ({ params, caller }) => {
      await tenantKnowledgeService().removeCriticalAsset(caller, params.entity_type, params.value);
      return { statusCode: 204, rawBody: '' };
    }),
  })),
);
