import { httpHandler } from '../../shared/api/http-handler';
import { listConsoleFeeds } from '../../shared/api/routes/feeds';
import { feedsService } from '../../shared/services/feeds/feeds';

/** GET /api/v1/console/admin/feeds: the same list as the admin route. */
export const handler = httpHandler(listConsoleFeeds, async () => ({
  statusCode: 200,
  body: { feeds: await (await feedsService()).list() },
  headers: { 'cache-control': 'no-store' },
}));
