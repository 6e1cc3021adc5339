import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/tenant-knowledge/tenant-knowledge';

/**
 * POST /api/v1/admin/allowlist and its console twin: 201 with the entry; 409 for a listed entity.
 * Also POST /api/v1/admin/do-not-share and POST /api/v1/admin/critical-assets with its console twin
 * (one function for all: the stack's resource budget).
 */
export const handler = twinRouteHandler(
  ...[routes.addAllowlistEntry, routes.addConsoleAllowlistEntry].map((route) => ({
    route,
    handler: httpHandler(route, async ({ body, caller }) => ({
      statusCode: 201,
      body: await tenantKnowledgeService().addEntry(caller, body),
    })),
  })),
  {
    route: routes.markDoNotShare,
    handler: httpHandler(routes.markDoNotShare, async ({ body, caller }) => ({
      statusCode: 201,
      body: await tenantKnowledgeService().markDoNotShare(caller, body),
    })),
  },
  ...[routes.addCriticalAsset, routes.addConsoleCriticalAsset].map((route) => ({
    route,
    handler: httpHandler(route, async ({ body, caller }) => ({
      statusCode: 201,
      body: await tenantKnowledgeService().addCriticalAsset(caller, body),
    })),
  })),
);
