import { type HttpResult, httpHandler } from '../../shared/api/http-handler';
import { getConsolePage } from '../../shared/api/routes/console';
import { config } from '../../shared/config';
import { consoleFileLayout } from '../../shared/platform/console-files';
import {
  consoleContentSecurityPolicy,
  consoleShell,
  consoleSignIn,
  SHELL_CACHE_CONTROL,
} from '../../shared/services/console/console-pages';

/** GET /sessions, /sessions/{id}, /incidents, ...: the HTML shell of the browser app; /console redirects. */
export const handler = httpHandler(
  getConsolePage,
  async ({ event }): Promise<HttpResult> => {
    if (event.resource === '/console') {
      // The stage is part of the public URL on AWS, so the target is absolute.
      const location = `${config().SIS_PUBLIC_URL.replace(/\/+$/, '')}/sessions`;
      return { statusCode: 302, rawBody: '', headers: { location, 'cache-control': 'no-store' } };
    }
    return {
      statusCode: 200,
      rawBody: await consoleShell(consoleFileLayout(), config().SIS_PUBLIC_URL),
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': SHELL_CACHE_CONTROL,
        'Content-Security-Policy': consoleContentSecurityPolicy(consoleSignIn(config())),
      },
    };
  },
  // The shell's own policy replaces the middleware's API default (which allows nothing at all), and
  // the page may write to the clipboard (Admin > API Keys copies a new secret); everything else stays off.
  { securityHeaders: { contentSecurityPolicy: false, permissionsPolicy: { 'clipboard-write': 'self' } } },
);
