import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/webhooks';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import { listWebhooks } from '../../shared/services/webhooks/webhooks';

/** GET /api/v1/admin/webhooks and its console twin: the subscriptions, never a secret. */
export const handler = twinRouteHandler(
  ...[routes.listWebhooks, routes.listConsoleWebhooks].map((route) => ({
    route,
    handler: httpHandler(route, async () => ({
      statusCode: 200,
      body: await listWebhooks(webhookContext()),
      headers: { 'cache-control': 'no-store' },
    })),
  })),
);
