import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/feeds';
import { feedList } from '../../shared/services/feeds/feed-listing';

const list = async () => ({
  statusCode: 200,
  body: { feeds: await feedList().list() },
  headers: { 'cache-control': 'no-store' },
});
const admin = httpHandler(routes.listFeeds, list);
const consoleAdmin = httpHandler(routes.listConsoleFeeds, list);

/**
 * GET /api/v1/admin/feeds (admin keys) and GET /api/v1/console/admin/feeds (console admins): each
 * public feed's settings and state, never a key. One function serves both rows, each checked by its
 * own. It reads the feeds' state items and the configuration only (feed-listing.ts): no object
 * store, downloader or parser in its bundle.
 */
export const handler = (event: APIGatewayProxyEvent, context: Context) =>
  event.resource === routes.listConsoleFeeds.path ? consoleAdmin(event, context) : admin(event, context);
