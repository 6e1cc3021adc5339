import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { listOwnSessions, ownSessionsIndex } from '../../shared/services/investigations/search';

/** GET /api/v1/sessions?status=&verdict=&entity=&since=&limit=&cursor=: the caller's own sessions only. */
export const handler = httpHandler(routes.listSessions, async ({ caller, query }) => ({
  statusCode: 200,
  body: await listOwnSessions(ownSessionsIndex(), caller, {
    status: query.status,
    verdict: query.verdict,
    entity: query.entity,
    since: query.since,
    limit: query.limit,
    cursor: query.cursor,
  }),
}));
