import { scheduledHandler } from '../../shared/handlers/scheduled-handler';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import { deliverWebhookMessage } from '../../shared/services/webhooks/webhook-delivery';

/**
 * One delivery attempt per invocation: the event is the message itself, from an asynchronous invoke
 * (the first attempt) or a one-shot EventBridge Scheduler schedule (a retry). Each invocation is its
 * own, so a hanging receiver holds up no other. A delivery whose attempts are spent is recorded failed
 * and reported to the failures alarm; an invocation that crashes or times out is retried by Lambda,
 * then sent to the function's on-failure destination (docs/soar.md "Webhooks").
 */
export const handler = scheduledHandler((event: unknown) => deliverWebhookMessage(webhookContext(), event));
