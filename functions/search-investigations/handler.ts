import { httpHandler } from '../../shared/api/http-handler';
import { compactSearchResults } from '../../shared/api/plugin-responses';
import * as routes from '../../shared/api/routes/search';
import { searchIndex, searchInvestigations } from '../../shared/services/investigations/search';

/** GET /api/v1/search?q=&status=&verdict=&limit=&cursor=: the caller's own sessions only. */
export const handler = httpHandler(routes.searchInvestigations, async ({ caller, query }) => ({
  statusCode: 200,
  body: compactSearchResults(
    await searchInvestigations(searchIndex(), caller, {
      q: query.q,
      status: query.status,
      verdict: query.verdict,
      limit: query.limit,
      cursor: query.cursor,
    }),
  ),
}));
