import { httpHandler } from '../../shared/api/http-handler';
import { listFeeds } from '../../shared/api/routes/feeds';
import { feedsService } from '../../shared/services/feeds/feeds';

/** GET /api/v1/admin/feeds: each public feed's settings and state, never a key. */
export const handler = httpHandler(listFeeds, async () => ({
  statusCode: 200,
  body: { feeds: await (await feedsService()).list() },
  headers: { 'cache-control': 'no-store' },
}));
