import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { getSessionHistory } from '../../shared/services/investigations/investigation-reads';
import { pollContext } from '../../shared/services/sessions/session-context';

/**
 * GET /api/v1/public/sessions/{session_id}: the public poll. Persisted state only, one DynamoDB
 * Query; 200 whatever the status (failed included), 403 for another key's session, 404 unknown.
 */
export const handler = httpHandler(routes.getSessionHistory, async ({ params, query, caller }) => ({
  statusCode: 200,
  body: await getSessionHistory(pollContext(), caller, params.session_id, query.after),
  headers: { 'cache-control': 'no-store' },
}));
