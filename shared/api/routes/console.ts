import type { ConsoleRole } from '../../domain/keys/scopes';
import { defineRoute, type RouteDefinition } from '../route-types';
import { AssetParams, AuditQuery, ConsoleSessionsQuery, IncidentParams } from '../schemas/console';
import { GraphEntityParams, GraphQuery } from '../schemas/graph';
import { ListIncidentsQuery } from '../schemas/incidents';
import { SessionHistoryQuery, SessionParams, StartInvestigationRequest } from '../schemas/investigations';
import { CreateApiKeyRequest, KeyIdParams, ListApiKeysQuery, RotateApiKeyRequest } from '../schemas/keys';

/**
 * The web console (docs/console.md): the HTML shell at the page paths, its hashed assets and sign-in
 * settings (public), and the data routes under `/api/v1/console/` for people signed in through the
 * tenant's OpenID Connect issuer (Bearer ID token, console authorizer; API keys are refused with 401).
 * None of these is in the OpenAPI documents: they are the browser app's, not a plugin's.
 */
export const CONSOLE_TAG = 'console';

const analyst = { kind: 'console', role: 'analyst' } as const satisfies {
  kind: 'console';
  role: ConsoleRole;
};
const admin = { kind: 'console', role: 'admin' } as const satisfies { kind: 'console'; role: ConsoleRole };
const tags = [CONSOLE_TAG] as const;

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
  tags,
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
  tags,
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
  tags,
  request: {},
  responses: { 200: { description: 'The settings', schema: 'ConsoleConfigResponse' } },
});

export const getConsoleMe = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleMe',
  method: 'GET',
  path: '/api/v1/console/me',
  access: analyst,
  functionName: 'console-me',
  summary: 'The signed-in person',
  description: 'Username, e-mail, role and groups of the signed-in person.',
  tags,
  request: {},
  responses: { 200: { description: 'The person', schema: 'ConsoleMeResponse' } },
});

export const listConsoleSessions = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleSessions',
  method: 'GET',
  path: '/api/v1/console/sessions',
  access: analyst,
  functionName: 'console-list-sessions',
  summary: "The tenant's sessions",
  description: 'Every session of the tenant (started by any key or person), newest first; q searches them.',
  tags,
  request: { query: ConsoleSessionsQuery },
  responses: { 200: { description: 'Sessions, newest first', schema: 'ConsoleSessionsResponse' } },
});

export const startConsoleInvestigation = /* @__PURE__ */ defineRoute({
  operationId: 'startConsoleInvestigation',
  method: 'POST',
  path: '/api/v1/console/investigations',
  access: analyst,
  functionName: 'console-start-investigation',
  summary: 'Start an investigation as the signed-in person',
  description: 'Starts a background investigation owned by the signed-in person (user:<sub>).',
  tags,
  request: { body: StartInvestigationRequest },
  responses: { 202: { description: 'Running in the background', schema: 'ConsoleStartResponse' } },
  errorStatuses: [409],
});

export const getConsoleSessionHistory = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleSessionHistory',
  method: 'GET',
  path: '/api/v1/console/sessions/{session_id}',
  access: analyst,
  functionName: 'console-get-session-history',
  summary: "Poll any of the tenant's sessions",
  description: 'The same body as getSessionHistory, for any session of the tenant.',
  tags,
  request: { params: SessionParams, query: SessionHistoryQuery },
  responses: { 200: { description: 'The session and its history', schema: 'SessionHistoryResponse' } },
});

export const getConsoleReport = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleReport',
  method: 'GET',
  path: '/api/v1/console/sessions/{session_id}/report',
  access: analyst,
  functionName: 'console-get-report',
  summary: "The report of any of the tenant's sessions",
  description: 'The same body as getInvestigationReport, for any session of the tenant.',
  tags,
  request: { params: SessionParams },
  responses: { 200: { description: 'The session and its report', schema: 'InvestigationReportResponse' } },
});

export const getConsoleStix = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleStix',
  method: 'GET',
  path: '/api/v1/console/sessions/{session_id}/stix',
  access: analyst,
  functionName: 'console-get-stix',
  summary: "The STIX 2.1 export of any of the tenant's sessions",
  description:
    'The same bundle as getInvestigationStix, for any session of the tenant (409 until completed).',
  tags,
  request: { params: SessionParams },
  responses: { 200: { description: 'The STIX 2.1 bundle', schema: 'StixBundle' } },
  errorStatuses: [409],
});

export const cancelConsoleInvestigation = /* @__PURE__ */ defineRoute({
  operationId: 'cancelConsoleInvestigation',
  method: 'POST',
  path: '/api/v1/console/sessions/{session_id}/cancel',
  access: analyst,
  functionName: 'console-cancel-investigation',
  summary: "Cancel any of the tenant's running investigations",
  description: 'The same as cancelInvestigation, for any session of the tenant (409 once ended).',
  tags,
  request: { params: SessionParams },
  responses: { 200: { description: 'The session is canceled', schema: 'CancelInvestigationResponse' } },
  errorStatuses: [409],
});

export const listConsoleIncidents = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleIncidents',
  method: 'GET',
  path: '/api/v1/console/incidents',
  access: analyst,
  functionName: 'console-list-incidents',
  summary: 'Incidents',
  description: 'The same as listIncidents, without the plugin size caps.',
  tags,
  request: { query: ListIncidentsQuery },
  responses: { 200: { description: 'Incidents, newest first', schema: 'ListIncidentsResponse' } },
});

export const getConsoleIncident = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleIncident',
  method: 'GET',
  path: '/api/v1/console/incidents/{incident_id}',
  access: analyst,
  functionName: 'console-get-incident',
  summary: 'One incident',
  description: 'One incident with its description, entities and SIEM link.',
  tags,
  request: { params: IncidentParams },
  responses: { 200: { description: 'The incident', schema: 'ConsoleIncidentResponse' } },
});

export const queryConsoleGraph = /* @__PURE__ */ defineRoute({
  operationId: 'queryConsoleGraph',
  method: 'GET',
  path: '/api/v1/console/graph/entity/{value}',
  access: analyst,
  functionName: 'console-query-graph',
  summary: "An entity's neighbourhood",
  description: 'The same as queryKnowledgeGraph, without the plugin size caps.',
  tags,
  request: { params: GraphEntityParams, query: GraphQuery },
  responses: { 200: { description: 'The entity and its neighbors', schema: 'GraphResponse' } },
});

export const listConsoleKeys = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleKeys',
  method: 'GET',
  path: '/api/v1/console/admin/keys',
  access: admin,
  functionName: 'console-list-keys',
  summary: 'List API keys (console admins)',
  description: 'The same as listApiKeys.',
  tags,
  request: { query: ListApiKeysQuery },
  responses: { 200: { description: 'The matching keys', schema: 'ListApiKeysResponse' } },
});

export const createConsoleKey = /* @__PURE__ */ defineRoute({
  operationId: 'createConsoleKey',
  method: 'POST',
  path: '/api/v1/console/admin/keys',
  access: admin,
  functionName: 'console-create-key',
  summary: 'Create an API key (console admins)',
  description: 'The same as createApiKey; the audit trail names the signed-in person as the actor.',
  tags,
  request: { body: CreateApiKeyRequest },
  responses: { 201: { description: 'The key was created', schema: 'CreateApiKeyResponse' } },
});

export const rotateConsoleKey = /* @__PURE__ */ defineRoute({
  operationId: 'rotateConsoleKey',
  method: 'POST',
  path: '/api/v1/console/admin/keys/{key_id}/rotate',
  access: admin,
  functionName: 'console-rotate-key',
  summary: 'Rotate an API key (console admins)',
  description: 'The same as rotateApiKey.',
  tags,
  request: { params: KeyIdParams, body: RotateApiKeyRequest },
  responses: { 200: { description: 'The new secret', schema: 'RotateApiKeyResponse' } },
  errorStatuses: [409],
});

export const disableConsoleKey = /* @__PURE__ */ defineRoute({
  operationId: 'disableConsoleKey',
  method: 'POST',
  path: '/api/v1/console/admin/keys/{key_id}/disable',
  access: admin,
  functionName: 'console-disable-key',
  summary: 'Disable an API key (console admins)',
  description: 'The same as disableApiKey.',
  tags,
  request: { params: KeyIdParams },
  responses: { 200: { description: 'The key, now disabled', schema: 'ApiKeySummary' } },
});

export const listConsoleAudit = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleAudit',
  method: 'GET',
  path: '/api/v1/console/admin/audit',
  access: admin,
  functionName: 'console-list-audit',
  summary: 'The key audit trail (console admins)',
  description: 'Every key administration operation, newest first.',
  tags,
  request: { query: AuditQuery },
  responses: { 200: { description: 'Audit entries, newest first', schema: 'AuditResponse' } },
});

export const consoleRoutes = [
  getConsolePage,
  getConsoleAsset,
  getConsoleConfig,
  getConsoleMe,
  listConsoleSessions,
  startConsoleInvestigation,
  getConsoleSessionHistory,
  getConsoleReport,
  getConsoleStix,
  cancelConsoleInvestigation,
  listConsoleIncidents,
  getConsoleIncident,
  queryConsoleGraph,
  listConsoleKeys,
  createConsoleKey,
  rotateConsoleKey,
  disableConsoleKey,
  listConsoleAudit,
] as const;

/** Console routes (pages, assets and data) are the browser app's; the OpenAPI documents leave them out. */
export function isConsoleRoute(route: RouteDefinition): boolean {
  return route.tags.includes(CONSOLE_TAG);
}
