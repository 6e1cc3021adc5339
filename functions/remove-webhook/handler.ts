import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/webhooks';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import { removeWebhook } from '../../shared/services/webhooks/webhooks';

/** DELETE /api/v1/admin/webhooks/{webhook_id} and its console twin: 204, or 404. */
export const handler = twinRouteHandler(
  ...[routes.removeWebhook, routes.removeConsoleWebhook].map((route) => ({
    route,
    handler: httpHandler(route, async ({ caller, params }) => {
      await removeWebhook(webhookContext(), caller, params.webhook_id);
      return { statusCode: 204, rawBody: '' };
    }),
  })),
);
