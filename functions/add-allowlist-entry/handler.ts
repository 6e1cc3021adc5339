import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/tenant-knowledge/tenant-knowledge';

/**
 * POST /api/v1/admin/allowlist and its console twin: 201 with the entry; 409 for a listed entity.
 * Also POST /api/v1/admin/do-not-share and its console twin (one function for all: the stack's
 * resource budget).
 * Critical assets (/api/v1/admin/critical-assets and its console twin) are served here too.
 */
export const handler = twinRouteHandler(
  ...[routes.addAllowlistEntry, routes.addConsoleAllowlistEntry].map((route) => ({
    route,
    handler: httpHandler(route, async ({ body, caller }) => ({
      statusCode: 201,
      body: await tenantKnowledgeService().addEntry(caller, body),
    })),
  })),
  ...[routes.markDoNotShare, routes.markConsoleDoNotShare].map((route) => ({
    route,
    handler: httpHandler(route, async ({ body, caller }) => ({
      statusCode: 201,
      body: await tenantKnowledgeService().markDoNotShare(caller, body),
    })),
  })),
  ...[routes.addCriticalAsset, routes.addConsoleCriticalAsset].map((route) => ({
    route,
    handler: httpHandler(route, async ({ body, caller }) => ({
      statusCode: 201,
      body: await tenantKnowledgeService().addCriticalAsset(caller, body),
    })),
  })),
);
