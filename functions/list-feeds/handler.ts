import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { httpHandler } from '../../shared/api/http-handler';
import { listConsoleFeeds, listFeeds } from '../../shared/api/routes/feeds';
import { feedsService } from '../../shared/services/feeds/feeds';

const list = async () => ({
  statusCode: 200,
  body: { feeds: await (await feedsService()).list() },
  headers: { 'cache-control': 'no-store' },
});
const admin = httpHandler(listFeeds, list);
const consoleAdmin = httpHandler(listConsoleFeeds, list);

/**
 * GET /api/v1/admin/feeds (admin keys) and GET /api/v1/console/admin/feeds (console admins): each
 * public feed's settings and state, never a key. One function serves both rows, each checked by its own.
 */
export const handler = (event: APIGatewayProxyEvent, context: Context) =>
  event.resource === listConsoleFeeds.path ? consoleAdmin(event, context) : admin(event, context);
