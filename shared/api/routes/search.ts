import { defineRoute } from '../route-types';
import { SearchQuery } from '../schemas/search';

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

export const searchRoutes = [searchInvestigations] as const;
