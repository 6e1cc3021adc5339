import { type HttpResult, httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/console';
import { config } from '../../shared/config';
import {
  consoleHome,
  SHELL_CACHE_CONTROL,
  servedConsoleShell,
} from '../../shared/services/console/console-pages';

/** GET /sessions, /sessions/{id}, /incidents, ...: the HTML shell of the browser app; /console redirects. */
export const handler = httpHandler(
  routes.getConsolePage,
  async ({ event }): Promise<HttpResult> => {
    if (event.resource === '/console') {
      return {
        statusCode: 302,
        rawBody: '',
        headers: { location: consoleHome(config()), 'cache-control': 'no-store' },
      };
    }
    const shell = await servedConsoleShell(config());
    return {
      statusCode: 200,
      rawBody: shell.html,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': SHELL_CACHE_CONTROL,
        'Content-Security-Policy': shell.contentSecurityPolicy,
      },
    };
  },
  // The shell's own policy replaces the middleware's API default (which allows nothing at all), and
  // the page may write to the clipboard (Admin > API Keys copies a new secret); everything else stays off.
  { securityHeaders: { contentSecurityPolicy: false, permissionsPolicy: { 'clipboard-write': 'self' } } },
);
