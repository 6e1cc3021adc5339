import { defineRoute } from '../route-types';
import { GraphEntityParams, GraphQuery } from '../schemas/graph';
import { consoleAnalyst, consoleTags } from './console-twin';

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

/** The console twin: the same neighbourhood for signed-in analysts, served by its own function. */
export const queryConsoleGraph = /* @__PURE__ */ defineRoute({
  operationId: 'queryConsoleGraph',
  method: 'GET',
  path: '/api/v1/console/graph/entity/{value}',
  access: consoleAnalyst,
  functionName: 'console-query-graph',
  summary: "An entity's neighbourhood",
  description: 'The same as queryKnowledgeGraph, without the plugin size caps.',
  tags: consoleTags,
  request: { params: GraphEntityParams, query: GraphQuery },
  responses: { 200: { description: 'The entity and its neighbors', schema: 'GraphResponse' } },
});

export const graphRoutes = [queryKnowledgeGraph] as const;

export const graphConsoleRoutes = [queryConsoleGraph] as const;
