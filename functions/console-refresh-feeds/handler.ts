import { httpHandler } from '../../shared/api/http-handler';
import { refreshConsoleFeeds } from '../../shared/api/routes/feeds';
import { MANUAL_REFRESH_TIMEOUT_MS } from '../../shared/services/feeds/feed-refresh';
import { feedsService } from '../../shared/services/feeds/feeds';

/** POST /api/v1/console/admin/feeds/refresh {names?}: the same refresh as the admin route. */
export const handler = httpHandler(refreshConsoleFeeds, async ({ body }) => ({
  statusCode: 200,
  body: {
    feeds: await (await feedsService()).refresh(body?.names, {
      force: true,
      timeoutMs: MANUAL_REFRESH_TIMEOUT_MS,
    }),
  },
  headers: { 'cache-control': 'no-store' },
}));
