import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/tenant-knowledge/tenant-knowledge';

/**
 * GET /api/v1/admin/allowlist and its console twin: every entry, newest first. Also
 * GET /api/v1/admin/do-not-share and its console twin: every mark (one function for both: the
 * stack's resource budget).
 * Critical assets (/api/v1/admin/critical-assets and its console twin) are served here too.
 */
export const handler = twinRouteHandler(
  ...[routes.listAllowlist, routes.listConsoleAllowlist].map((route) => ({
    route,
    handler: httpHandler(route, async () => ({
      statusCode: 200,
      body: await tenantKnowledgeService().listEntries(),
      headers: { 'cache-control': 'no-store' },
    })),
  })),
  ...[routes.listDoNotShare, routes.listConsoleDoNotShare].map((route) => ({
    route,
    handler: httpHandler(route, async () => ({
      statusCode: 200,
      body: await tenantKnowledgeService().listDoNotShare(),
      headers: { 'cache-control': 'no-store' },
    })),
  })),
  ...[routes.listCriticalAssets, routes.listConsoleCriticalAssets].map((route) => ({
    route,
    handler: httpHandler(route, async () => ({
      statusCode: 200,
      body: await tenantKnowledgeService().listCriticalAssets(),
      headers: { 'cache-control': 'no-store' },
    })),
  })),
);
