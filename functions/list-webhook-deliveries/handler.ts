import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/webhooks';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import { listWebhookDeliveries } from '../../shared/services/webhooks/webhooks';

/** GET /api/v1/admin/webhooks/{webhook_id}/deliveries and its console twin: the delivery log. */
export const handler = twinRouteHandler(
  ...[routes.listWebhookDeliveries, routes.listConsoleWebhookDeliveries].map((route) => ({
    route,
    handler: httpHandler(route, async ({ params }) => ({
      statusCode: 200,
      body: await listWebhookDeliveries(webhookContext(), params.webhook_id),
      headers: { 'cache-control': 'no-store' },
    })),
  })),
);
