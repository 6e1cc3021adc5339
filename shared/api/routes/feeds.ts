import { defineRoute } from '../route-types';
import { RefreshFeedsRequest } from '../schemas/feeds';
import { consoleAdmin, consoleTags } from './console-twin';

const LIST_DESCRIPTION = `Lists every public threat feed (Spamhaus DROP, Feodo Tracker, URLhaus, ThreatFox, OpenPhish, Tor exits, CINS, ET compromised, Tranco): whether this deployment enables it, its source URL (keys masked), when it was last refreshed, how many indicators its last good copy holds, and its status (ok, error with the reason, stale, disabled). See docs/feeds.md.`;
const REFRESH_DESCRIPTION = `Downloads the named feeds (default: every enabled feed) now, ignoring the publishers' minimum interval, and answers when done with the same list as GET. A feed whose download fails, is cut by the size or time cap, or yields no valid indicator is listed with status error and its reason, and keeps its last good copy; a disabled feed is never fetched.`;

export const listFeeds = /* @__PURE__ */ defineRoute({
  operationId: 'listFeeds',
  method: 'GET',
  path: '/api/v1/admin/feeds',
  access: { kind: 'admin' },
  functionName: 'list-feeds',
  summary: 'List the public threat feeds',
  description: LIST_DESCRIPTION,
  tags: ['admin'],
  request: {},
  responses: { 200: { description: 'The feeds', schema: 'ListFeedsResponse' } },
});

export const refreshFeeds = /* @__PURE__ */ defineRoute({
  operationId: 'refreshFeeds',
  method: 'POST',
  path: '/api/v1/admin/feeds/refresh',
  access: { kind: 'admin' },
  functionName: 'refresh-feeds',
  summary: 'Refresh public threat feeds now',
  description: REFRESH_DESCRIPTION,
  tags: ['admin'],
  request: { body: RefreshFeedsRequest },
  responses: { 200: { description: 'The feeds after the refresh', schema: 'ListFeedsResponse' } },
  timeoutSeconds: 29,
  memoryMb: 1024,
});

export const listConsoleFeeds = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleFeeds',
  method: 'GET',
  path: '/api/v1/console/admin/feeds',
  access: consoleAdmin,
  // Served by the admin route's function (list-feeds/handler.ts picks the row by path): one Lambda fewer.
  functionName: 'list-feeds',
  summary: 'List the public threat feeds (console admins)',
  description: 'The same as listFeeds.',
  tags: consoleTags,
  request: {},
  responses: { 200: { description: 'The feeds', schema: 'ListFeedsResponse' } },
});

export const refreshConsoleFeeds = /* @__PURE__ */ defineRoute({
  operationId: 'refreshConsoleFeeds',
  method: 'POST',
  path: '/api/v1/console/admin/feeds/refresh',
  access: consoleAdmin,
  functionName: 'refresh-feeds',
  summary: 'Refresh public threat feeds now (console admins)',
  description: 'The same as refreshFeeds.',
  tags: consoleTags,
  request: { body: RefreshFeedsRequest },
  responses: { 200: { description: 'The feeds after the refresh', schema: 'ListFeedsResponse' } },
  timeoutSeconds: 29,
  memoryMb: 1024,
});

export const feedRoutes = [listFeeds, refreshFeeds, listConsoleFeeds, refreshConsoleFeeds] as const;
