import { defineRoute } from '../route-types';
import { AssetParams } from '../schemas/console';
import { consoleAnalyst, consoleTags } from './console-twin';

/**
 * The web console itself (docs/console.md): the HTML shell at the page paths, its hashed assets and
 * sign-in settings (public), and who is signed in. The console's data routes under `/api/v1/console/`
 * are twins of API routes and sit with their feature (routes/<feature>.ts, built from console-twin.ts).
 * None of these is in the OpenAPI documents: they are the browser app's, not a plugin's.
 */
/** The page paths of the browser app; every one answers the same HTML shell. */
export const CONSOLE_PAGE_PATHS = [
  '/sessions',
  '/sessions/{session_id}',
  '/incidents',
  '/incidents/{incident_id}',
  '/graph/{value}',
  '/admin/keys',
  '/admin/audit',
  '/admin/allowlist',
  '/admin/feeds',
  '/admin/connectors',
  '/admin/webhooks',
  '/admin/critical-assets',
  '/auth/callback',
  '/signed-out',
  '/console',
] as const;

export const getConsolePage = /* @__PURE__ */ defineRoute({
  operationId: 'getConsolePage',
  method: 'GET',
  path: '/sessions',
  aliases: CONSOLE_PAGE_PATHS.slice(1),
  access: { kind: 'public' },
  functionName: 'console-page',
  summary: 'The console HTML shell',
  description: 'The HTML shell of the browser app at every page path (/console redirects to /sessions).',
  tags: consoleTags,
  request: {},
  responses: { 200: { description: 'The HTML shell' } },
});

export const getConsoleAsset = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleAsset',
  method: 'GET',
  path: '/console/assets/{file}',
  access: { kind: 'public' },
  functionName: 'console-asset',
  summary: 'A content-hashed console asset',
  description: 'Scripts and styles of the browser app, cached for a year (their names change with content).',
  tags: consoleTags,
  request: { params: AssetParams },
  responses: { 200: { description: 'The asset' } },
});

export const getConsoleConfig = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleConfig',
  method: 'GET',
  path: '/console/config.json',
  access: { kind: 'public' },
  functionName: 'console-config',
  summary: 'Console sign-in settings',
  description: 'The OpenID Connect issuer, endpoints, public client ID and redirect URI of the console.',
  tags: consoleTags,
  request: {},
  responses: { 200: { description: 'The settings', schema: 'ConsoleConfigResponse' } },
});

export const getConsoleMe = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleMe',
  method: 'GET',
  path: '/api/v1/console/me',
  access: consoleAnalyst,
  functionName: 'console-me',
  summary: 'The signed-in person',
  description: 'Username, e-mail, role and groups of the signed-in person.',
  tags: consoleTags,
  request: {},
  responses: { 200: { description: 'The person', schema: 'ConsoleMeResponse' } },
});

export const consoleRoutes = [getConsolePage, getConsoleAsset, getConsoleConfig, getConsoleMe] as const;
