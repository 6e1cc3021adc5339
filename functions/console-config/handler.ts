import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/console';
import { config } from '../../shared/config';
import { consoleConfig } from '../../shared/services/console/console-pages';

/** GET /console/config.json: where the browser app signs people in (404 when sign-in is not configured). */
export const handler = httpHandler(routes.getConsoleConfig, async () => ({
  statusCode: 200,
  body: consoleConfig(config()),
  headers: { 'cache-control': 'no-cache' },
}));
