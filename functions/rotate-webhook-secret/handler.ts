import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/webhooks';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import { rotateWebhookSecret } from '../../shared/services/webhooks/webhooks';

/** POST /api/v1/admin/webhooks/{webhook_id}/rotate-secret and its console twin: the new secret. */
export const handler = twinRouteHandler(
  ...[routes.rotateWebhookSecret, routes.rotateConsoleWebhookSecret].map((route) => ({
    route,
    handler: httpHandler(route, async ({ caller, params }) => ({
      statusCode: 200,
      body: await rotateWebhookSecret(webhookContext(), caller, params.webhook_id),
      headers: { 'cache-control': 'no-store' },
    })),
  })),
);
