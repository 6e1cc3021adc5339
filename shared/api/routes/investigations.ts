import { defineRoute } from '../route-types';
import { ConsoleSessionsQuery } from '../schemas/console';
import { SessionHistoryQuery, SessionParams, StartInvestigationRequest } from '../schemas/investigations';
import { ListSessionsQuery } from '../schemas/search';
import { consoleAnalyst, consoleTags } from './console-twin';

export const startInvestigation = /* @__PURE__ */ defineRoute({
  operationId: 'startInvestigation',
  method: 'POST',
  path: '/api/v1/investigations/start',
  aliases: ['/api/v1/public/investigations/start'],
  access: { kind: 'scope', scope: 'investigations:write' },
  functionName: 'start-investigation',
  summary: 'Investigate an entity',
  description: `Investigates an IP address, user, host or domain: enrichment tools run against the entity, incident history, earlier investigations and the knowledge graph, and a report with a summary, risk score (0-100), verdict, related entities and findings is written for the persona (default SOC Analyst). score_explanation gives the points each finding and each intelligence source contributed. A public IP's investigated entity carries offline attributes (asn, as_org, country, network_class). Each threat-intelligence source the tenant configured runs as its own tool (intel_<source>); its findings carry the source's verdict (source_verdict), findings carry MITRE ATT&CK techniques (attack) where they apply, and report.coverage.intel_sources lists the sources that answered, came from cache, were skipped or failed. tlp (TLP 2.0, default amber) decides which sources may receive the entity: a source whose maximum TLP is lower is skipped with the reason (red: no third party is asked); private addresses and internal names are never sent; refresh_intel=true bypasses the sources' cache. With background=false (default) the response is the finished result (200); allow up to 1860 s. If the service's wait bound passes first, the answer is 202 with the session to poll. With background=true the answer is 202 at once with session_id, run_id and session_url: poll getSessionHistory every few seconds until session.status is completed, failed or canceled, then read getInvestigationReport. Send an Idempotency-Key header (1-128 characters) to make a retried request return the first request's session instead of starting another investigation.`,
  tags: ['investigations'],
  pluginSkill: 'Investigate Entity',
  request: { body: StartInvestigationRequest },
  responses: {
    200: {
      description: 'The finished investigation (synchronous start)',
      schema: 'StartInvestigationResultResponse',
    },
    202: {
      description: 'Running in the background (background=true, or the synchronous wait bound passed)',
      schema: 'StartInvestigationAcceptedResponse',
      pollHeaders: true,
    },
  },
  errorStatuses: [409],
  // On AWS the API Gateway integration ends at 29 s; SIS_SYNC_WAIT_SECONDS keeps the wait below it.
  timeoutSeconds: 30,
});

export const getSessionHistory = /* @__PURE__ */ defineRoute({
  operationId: 'getSessionHistory',
  method: 'GET',
  path: '/api/v1/public/sessions/{session_id}',
  access: { kind: 'scope', scope: 'investigations:read' },
  ownerOnly: true,
  functionName: 'get-session-history',
  summary: 'Poll an investigation session',
  description: `Returns the persisted state of a session: session.status, session.started_by (the API key or person that started it, by name), messages, events and tool_calls. Keep polling every few seconds while session.status is initialized or active; stop when it is completed, failed or canceled (answered 200 even when failed). Pass next_cursor as ?after= to receive only history recorded since the previous poll. Only the API key that started the session may read it (403 otherwise). Polling never restarts an investigation.`,
  tags: ['investigations'],
  request: { params: SessionParams, query: SessionHistoryQuery },
  responses: {
    200: { description: 'The session and its history', schema: 'SessionHistoryResponse' },
    202: {
      description:
        'With async=true only: the session is still running; poll Location after Retry-After seconds',
      schema: 'SessionHistoryResponse',
      pollHeaders: true,
    },
  },
});

export const cancelInvestigation = /* @__PURE__ */ defineRoute({
  operationId: 'cancelInvestigation',
  method: 'POST',
  path: '/api/v1/public/sessions/{session_id}/cancel',
  access: { kind: 'scope', scope: 'investigations:write' },
  ownerOnly: true,
  functionName: 'cancel-investigation',
  summary: 'Cancel an investigation',
  description: `Stops a running investigation: the session ends with status canceled and no report. A session that has already ended (completed, failed or canceled) cannot be canceled (409). Only the API key that started the session may cancel it.`,
  tags: ['investigations'],
  request: { params: SessionParams },
  responses: { 200: { description: 'The session is canceled', schema: 'CancelInvestigationResponse' } },
  errorStatuses: [409],
});

export const getInvestigationReport = /* @__PURE__ */ defineRoute({
  operationId: 'getInvestigationReport',
  method: 'GET',
  path: '/api/v1/sessions/{session_id}',
  access: { kind: 'scope', scope: 'investigations:read' },
  ownerOnly: true,
  functionName: 'get-investigation-report',
  summary: 'Get an investigation report',
  description: `Returns the report of an investigation by session ID: summary, risk score (0-100) with score_explanation, verdict, entities (offline asn, as_org, country, network_class attributes on a public IP), findings (per-source intelligence verdicts and MITRE ATT&CK techniques where they apply) and coverage, with the session's status and TLP. report is null until the status is completed (and stays null for failed or canceled sessions). The same report is exported as a STIX 2.1 bundle by getInvestigationStix. Only the API key that started the session may read it.`,
  tags: ['investigations'],
  pluginSkill: 'Get Investigation Report',
  request: { params: SessionParams },
  responses: { 200: { description: 'The session and its report', schema: 'InvestigationReportResponse' } },
});

export const getInvestigationStix = /* @__PURE__ */ defineRoute({
  operationId: 'getInvestigationStix',
  method: 'GET',
  path: '/api/v1/sessions/{session_id}/stix',
  access: { kind: 'scope', scope: 'investigations:read' },
  ownerOnly: true,
  functionName: 'get-investigation-stix',
  summary: 'Export an investigation report as STIX 2.1',
  description: `Returns the report of a completed investigation as a STIX 2.1 bundle for a threat-intelligence platform (MISP, OpenCTI...): a report object (verdict, summary, risk as confidence), an identity for this service, the investigated and related entities as observables with the STIX deterministic IDs (ipv4-addr, ipv6-addr, domain-name, user-account; hosts as infrastructure), an indicator with a STIX pattern when the verdict is malicious, attack-patterns for the MITRE ATT&CK techniques of the findings, and the session's TLP 2.0 marking-definition on every object. 409 while the session is not completed (or when it failed or was canceled: there is no report). Only the API key that started the session may read it.`,
  tags: ['investigations'],
  request: { params: SessionParams },
  responses: { 200: { description: 'The STIX 2.1 bundle', schema: 'StixBundle' } },
  errorStatuses: [409],
});

export const listSessions = /* @__PURE__ */ defineRoute({
  operationId: 'listSessions',
  method: 'GET',
  path: '/api/v1/sessions',
  access: { kind: 'scope', scope: 'investigations:read' },
  functionName: 'list-sessions',
  summary: "List the caller's investigation sessions",
  description: `Lists the investigation sessions started with this API key, newest first, running ones included: session_id, status, entity, verdict, risk score, summary, persona and start time. Filters: status, verdict, entity (an IP, user or domain exactly, other text by its words) and since (start time). Page with limit and next_cursor. Another key's sessions are never listed.`,
  tags: ['investigations'],
  request: { query: ListSessionsQuery },
  responses: { 200: { description: "The caller's sessions, newest first", schema: 'ListSessionsResponse' } },
});

export const investigationRoutes = [
  startInvestigation,
  getSessionHistory,
  cancelInvestigation,
  getInvestigationReport,
  getInvestigationStix,
  listSessions,
] as const;

export const listConsoleSessions = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleSessions',
  method: 'GET',
  path: '/api/v1/console/sessions',
  access: consoleAnalyst,
  functionName: 'console-list-sessions',
  summary: "The tenant's sessions",
  description:
    'Every session of the tenant (started by any key or person), newest first; q searches them. batch_id lists the sessions of one batch instead, all in one page (404 for an unknown batch; 400 with q or cursor).',
  tags: consoleTags,
  request: { query: ConsoleSessionsQuery },
  responses: { 200: { description: 'Sessions, newest first', schema: 'ConsoleSessionsResponse' } },
  errorStatuses: [404],
});

export const startConsoleInvestigation = /* @__PURE__ */ defineRoute({
  operationId: 'startConsoleInvestigation',
  method: 'POST',
  path: '/api/v1/console/investigations',
  access: consoleAnalyst,
  functionName: 'console-start-investigation',
  summary: 'Start an investigation as the signed-in person',
  description: 'Starts a background investigation owned by the signed-in person (user:<sub>).',
  tags: consoleTags,
  request: { body: StartInvestigationRequest },
  responses: { 202: { description: 'Running in the background', schema: 'ConsoleStartResponse' } },
  errorStatuses: [409],
});

export const getConsoleSessionHistory = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleSessionHistory',
  method: 'GET',
  path: '/api/v1/console/sessions/{session_id}',
  access: consoleAnalyst,
  functionName: 'console-get-session-history',
  summary: "Poll any of the tenant's sessions",
  description: 'The same body as getSessionHistory, for any session of the tenant.',
  tags: consoleTags,
  request: { params: SessionParams, query: SessionHistoryQuery },
  responses: { 200: { description: 'The session and its history', schema: 'SessionHistoryResponse' } },
});

export const getConsoleReport = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleReport',
  method: 'GET',
  path: '/api/v1/console/sessions/{session_id}/report',
  access: consoleAnalyst,
  functionName: 'console-get-report',
  summary: "The report of any of the tenant's sessions",
  description: 'The same body as getInvestigationReport, for any session of the tenant.',
  tags: consoleTags,
  request: { params: SessionParams },
  responses: { 200: { description: 'The session and its report', schema: 'InvestigationReportResponse' } },
});

export const getConsoleStix = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleStix',
  method: 'GET',
  path: '/api/v1/console/sessions/{session_id}/stix',
  access: consoleAnalyst,
  functionName: 'console-get-stix',
  summary: "The STIX 2.1 export of any of the tenant's sessions",
  description:
    'The same bundle as getInvestigationStix, for any session of the tenant (409 until completed).',
  tags: consoleTags,
  request: { params: SessionParams },
  responses: { 200: { description: 'The STIX 2.1 bundle', schema: 'StixBundle' } },
  errorStatuses: [409],
});

export const cancelConsoleInvestigation = /* @__PURE__ */ defineRoute({
  operationId: 'cancelConsoleInvestigation',
  method: 'POST',
  path: '/api/v1/console/sessions/{session_id}/cancel',
  access: consoleAnalyst,
  functionName: 'console-cancel-investigation',
  summary: "Cancel any of the tenant's running investigations",
  description: 'The same as cancelInvestigation, for any session of the tenant (409 once ended).',
  tags: consoleTags,
  request: { params: SessionParams },
  responses: { 200: { description: 'The session is canceled', schema: 'CancelInvestigationResponse' } },
  errorStatuses: [409],
});

export const investigationConsoleRoutes = [
  listConsoleSessions,
  startConsoleInvestigation,
  getConsoleSessionHistory,
  getConsoleReport,
  getConsoleStix,
  cancelConsoleInvestigation,
] as const;
