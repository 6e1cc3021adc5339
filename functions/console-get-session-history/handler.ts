import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { keysStore } from '../../shared/services/console/console';
import { getSessionHistory } from '../../shared/services/investigations/investigation-reads';
import { pollContext } from '../../shared/services/sessions/session-context';

/**
 * GET /api/v1/console/sessions/{session_id}?after=: the public poll's body, for any tenant session;
 * a key session from before starters' names were recorded has its key's name looked up.
 */
export const handler = httpHandler(routes.getConsoleSessionHistory, async ({ params, query, caller }) => ({
  statusCode: 200,
  body: await getSessionHistory(
    { ...pollContext(), keys: keysStore() },
    caller,
    params.session_id,
    query.after,
  ),
  headers: { 'cache-control': 'no-store' },
}));
