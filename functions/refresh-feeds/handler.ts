import { httpHandler } from '../../shared/api/http-handler';
import { refreshFeeds } from '../../shared/api/routes/feeds';
import { MANUAL_REFRESH_TIMEOUT_MS } from '../../shared/services/feeds/feed-refresh';
import { feedsService } from '../../shared/services/feeds/feeds';

/** POST /api/v1/admin/feeds/refresh {names?}: downloads now and answers with the feeds' list. */
export const handler = httpHandler(refreshFeeds, async ({ body }) => ({
  statusCode: 200,
  body: {
    feeds: await (await feedsService()).refresh(body?.names, {
      force: true,
      timeoutMs: MANUAL_REFRESH_TIMEOUT_MS,
    }),
  },
  headers: { 'cache-control': 'no-store' },
}));
