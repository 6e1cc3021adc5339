import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/tenant-knowledge/tenant-knowledge';

/**
 * GET /api/v1/admin/allowlist and its console twin: every entry, newest first. Also
 * GET /api/v1/admin/do-not-share: every mark, and GET /api/v1/admin/critical-assets with its console
 * twin: every asset (one function for all: the stack's resource budget).
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
  {
    route: routes.listDoNotShare,
    handler: httpHandler(routes.listDoNotShare, async () => ({
      statusCode: 200,
      body: await tenantKnowledgeService().listDoNotShare(),
      headers: { 'cache-control': 'no-store' },
    })),
  },
  ...[routes.listCriticalAssets, routes.listConsoleCriticalAssets].map((route) => ({
    route,
    handler: httpHandler(route, async () => ({
      statusCode: 200,
      body: await tenantKnowledgeService().listCriticalAssets(),
      headers: { 'cache-control': 'no-store' },
    })),
  })),
);
