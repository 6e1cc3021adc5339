import { queueConsumer } from '../../shared/handlers/queue-consumer';
import { webhookContext } from '../../shared/services/webhooks/webhook-context';
import {
  DeliveryExhaustedError,
  deliverWebhookMessage,
  MalformedWebhookMessageError,
} from '../../shared/services/webhooks/webhook-delivery';

/**
 * SQS consumer of the webhook queue: one delivery attempt per record (records of a batch run side by
 * side, so a hanging receiver holds up no other). A malformed message, or a delivery whose attempts
 * are spent, fails until the queue moves it to the dead-letter queue, whose alarm tells the operator.
 */
export const handler = queueConsumer({
  subject: 'webhook delivery',
  handle: (body) => deliverWebhookMessage(webhookContext(), body),
  isPoison: (error) =>
    error instanceof MalformedWebhookMessageError || error instanceof DeliveryExhaustedError,
});
