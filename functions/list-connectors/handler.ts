import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/connectors';
import { connectorsOverview } from '../../shared/services/intel/connectors-overview';

/**
 * GET /api/v1/admin/connectors and its console twin GET /api/v1/console/connectors: each
 * intelligence connector's settings and today's state, never a key. One function serves both rows,
 * each checked by its own.
 */
export const handler = twinRouteHandler(
  ...[routes.listConnectors, routes.listConsoleConnectors].map((route) => ({
    route,
    handler: httpHandler(route, async () => ({
      statusCode: 200,
      body: { connectors: await connectorsOverview() },
      headers: { 'cache-control': 'no-store' },
    })),
  })),
);
