import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/feeds';
import { feedsService, MANUAL_REFRESH_TIMEOUT_MS } from '../../shared/services/feeds/feeds';

const refresh = async ({ body }: { body: { names?: string[] } | undefined }) => ({
  statusCode: 200,
  body: {
    feeds: await feedsService().refresh(body?.names, {
      force: true,
      timeoutMs: MANUAL_REFRESH_TIMEOUT_MS,
    }),
  },
  headers: { 'cache-control': 'no-store' },
});
const admin = httpHandler(routes.refreshFeeds, refresh);
const consoleAdmin = httpHandler(routes.refreshConsoleFeeds, refresh);

/**
 * POST /api/v1/admin/feeds/refresh and POST /api/v1/console/admin/feeds/refresh {names?}: downloads
 * now and answers with the feeds' list. One function serves both rows, each checked by its own.
 */
export const handler = (event: APIGatewayProxyEvent, context: Context) =>
  event.resource === routes.refreshConsoleFeeds.path ? consoleAdmin(event, context) : admin(event, context);
