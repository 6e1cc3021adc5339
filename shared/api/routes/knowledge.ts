import { defineRoute } from '../route-types';
import { GraphEntityParams, GraphQuery } from '../schemas/graph';
import { IngestIncidentsRequest, ListIncidentsQuery } from '../schemas/incidents';
import { SearchQuery } from '../schemas/search';

export const queryKnowledgeGraph = /* @__PURE__ */ defineRoute({
  operationId: 'queryKnowledgeGraph',
  method: 'GET',
  path: '/api/v1/graph/entity/{value}',
  access: { kind: 'scope', scope: 'graph:read' },
  functionName: 'query-knowledge-graph',
  summary: 'Look up an entity in the knowledge graph',
  description: `Returns an entity (IP address, user, host or domain) and its neighborhood: the entities it was seen with in SIEM incidents and past investigations, with the relationship, how often, when first and last, the incident or session IDs behind it, and the neighbor's latest risk score (risk_score, 0-100) when an investigation scored it. The value is normalised (e.g. case of domains and users). Give type when the value is ambiguous (a bare logon name is read as a host). depth=2 adds the neighbors of the 10 strongest direct neighbors (up to 10 each). Page with limit and next_cursor. 404 when no incident or investigation has named the entity.`,
  tags: ['knowledge'],
  pluginSkill: 'Query Knowledge Graph',
  request: { params: GraphEntityParams, query: GraphQuery },
  responses: { 200: { description: 'The entity and its neighbors', schema: 'GraphResponse' } },
  errorStatuses: [404],
});

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

export const searchInvestigations = /* @__PURE__ */ defineRoute({
  operationId: 'searchInvestigations',
  method: 'GET',
  path: '/api/v1/search',
  access: { kind: 'scope', scope: 'search:read' },
  functionName: 'search-investigations',
  summary: 'Search investigations',
  description: `Searches the caller's own investigation sessions (those started with this API key) for every term of q: entity values (IP, user, domain) match exactly, other words match the summary and findings, and filters such as verdict:malicious or type:ip narrow the result. Newest first; page with limit and next_cursor.`,
  tags: ['investigations'],
  pluginSkill: 'Search Investigations',
  request: { query: SearchQuery },
  responses: { 200: { description: 'Matching sessions, newest first', schema: 'SearchResponse' } },
});

export const knowledgeRoutes = [
  queryKnowledgeGraph,
  listIncidents,
  ingestIncidents,
  searchInvestigations,
] as const;
