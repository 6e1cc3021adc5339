import { defineRoute } from '../route-types';
import { IncidentParams } from '../schemas/console';
import { IngestIncidentsRequest, ListIncidentsQuery } from '../schemas/incidents';
import { consoleAnalyst, consoleTags } from './console-twin';

export const listIncidents = /* @__PURE__ */ defineRoute({
  operationId: 'listIncidents',
  method: 'GET',
  path: '/api/v1/incidents',
  access: { kind: 'scope', scope: 'incidents:read' },
  functionName: 'list-incidents',
  summary: 'List recent incidents',
  description: `Latest incidents synced from the SIEM, newest first by the time the SIEM raised them. Filter by severity (e.g. severity=high,critical), status, and a time range (since inclusive, until exclusive; ISO 8601 or a date). Each incident has a title, severity, status and a link to it in this service. Page with limit (1-100) and next_cursor; a page can hold fewer than limit incidents while next_cursor is set.`,
  tags: ['incidents'],
  pluginSkill: 'List Recent Incidents',
  request: { query: ListIncidentsQuery },
  responses: { 200: { description: 'Incidents, newest first', schema: 'ListIncidentsResponse' } },
});

export const ingestIncidents = /* @__PURE__ */ defineRoute({
  operationId: 'ingestIncidents',
  method: 'POST',
  path: '/api/v1/incidents/ingest',
  access: { kind: 'scope', scope: 'incidents:write' },
  functionName: 'ingest-incidents',
  summary: 'Push incidents from a SIEM',
  description: `Accepts 1-500 incidents, either normalised (IncidentInput) or, with format, a SIEM's native records (Sentinel incidents, Splunk ES notable events, Elastic Security alerts). Each record is validated on its own: valid ones are queued for storage and answered as accepted, invalid ones are listed by index in errors. Storage is asynchronous and idempotent: the same source + source_id is one incident, and an older copy never overwrites a newer one.`,
  tags: ['incidents'],
  request: { body: IngestIncidentsRequest },
  responses: { 202: { description: 'The valid incidents were queued', schema: 'IngestIncidentsResponse' } },
  timeoutSeconds: 29,
});

export const listConsoleIncidents = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleIncidents',
  method: 'GET',
  path: '/api/v1/console/incidents',
  access: consoleAnalyst,
  functionName: 'console-list-incidents',
  summary: 'Incidents',
  description: 'The same as listIncidents, without the plugin size caps.',
  tags: consoleTags,
  request: { query: ListIncidentsQuery },
  responses: { 200: { description: 'Incidents, newest first', schema: 'ListIncidentsResponse' } },
});

export const getConsoleIncident = /* @__PURE__ */ defineRoute({
  operationId: 'getConsoleIncident',
  method: 'GET',
  path: '/api/v1/console/incidents/{incident_id}',
  access: consoleAnalyst,
  functionName: 'console-get-incident',
  summary: 'One incident',
  description: 'One incident with its description, entities and SIEM link.',
  tags: consoleTags,
  request: { params: IncidentParams },
  responses: { 200: { description: 'The incident', schema: 'ConsoleIncidentResponse' } },
});

export const incidentRoutes = [listIncidents, ingestIncidents] as const;

export const incidentConsoleRoutes = [listConsoleIncidents, getConsoleIncident] as const;
