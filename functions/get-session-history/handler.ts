import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { config } from '../../shared/config';
import { getSessionHistory } from '../../shared/services/investigations/investigation-reads';
import { pollContext, pollStatus } from '../../shared/services/sessions/session-context';

/**
 * GET /api/v1/public/sessions/{session_id}: the public poll. Persisted state only, one DynamoDB
 * Query; 200 whatever the status (failed included), 403 for another key's session, 404 unknown.
 * With `async=true` (the Location of a background start) a session still running is answered 202
 * with Location and Retry-After, so a Logic Apps HTTP action keeps polling until it has ended.
 */
export const handler = httpHandler(routes.getSessionHistory, async ({ params, query, caller }) => {
  const body = await getSessionHistory(pollContext(), caller, params.session_id, query.after);
  const answer = pollStatus(config(), params.session_id, body.session.status, query.async === 'true');
  return {
    statusCode: answer.statusCode,
    body,
    headers: { 'cache-control': 'no-store', ...answer.headers },
  };
});
