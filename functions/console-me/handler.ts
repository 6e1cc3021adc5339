import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/console';
import { consoleMe } from '../../shared/services/console/console';

/** GET /api/v1/console/me: who is signed in, with the role the console shows pages for. */
export const handler = httpHandler(routes.getConsoleMe, async ({ caller }) => ({
  statusCode: 200,
  body: consoleMe(caller.user),
  headers: { 'cache-control': 'no-store' },
}));
