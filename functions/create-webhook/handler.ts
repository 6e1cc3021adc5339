import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/webhooks';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import { createWebhook } from '../../shared/services/webhooks/webhooks';

/** POST /api/v1/admin/webhooks and its console twin: 201 with the secret, shown this once. */
export const handler = twinRouteHandler(
  ...[routes.createWebhook, routes.createConsoleWebhook].map((route) => ({
    route,
    handler: httpHandler(route, async ({ body, caller }) => {
      const { webhook, secret } = await createWebhook(webhookContext(), caller, body);
      return { statusCode: 201, body: { ...webhook, secret }, headers: { 'cache-control': 'no-store' } };
    }),
  })),
);
