import { type Config, perConfiguration } from '../../config';
import { type WebhookDispatch, webhookDispatchFromConfig } from '../../platform/webhooks/webhook-dispatch';
import { postWebhook, type ResolveHost } from '../../platform/webhooks/webhook-http';
import { documentClientFor } from '../../store/dynamo-client';
import { tableName } from '../../store/tables';
import { DeliveriesRepository } from '../../store/webhooks/deliveries-repository';
import { WebhooksRepository } from '../../store/webhooks/webhooks-repository';

/**
 * What the webhook functions work with: the subscriptions (and their secrets), the delivery log, the
 * dispatch of attempts (async invoke now, one-shot schedule later), the outbound door and the clock. Publishers use the first three; the delivery
 * function all of them. Built once per configuration.
 */
export interface WebhookContext {
  cfg: Config;
  webhooks: WebhooksRepository;
  deliveries: DeliveriesRepository;
  /** Undefined where the deployment gave the function no delivery function: nothing is published. */
  dispatch: WebhookDispatch | undefined;
  post: typeof postWebhook;
  /** The resolver deliveries and registrations check addresses with (tests pin one). */
  resolve?: ResolveHost;
  now: () => Date;
  random: () => number;
}

export const webhookContext = /* @__PURE__ */ perConfiguration((cfg): WebhookContext => {
  const doc = documentClientFor(cfg);
  return {
    cfg,
    webhooks: new WebhooksRepository(doc, tableName(cfg, 'sessions'), tableName(cfg, 'keys')),
    deliveries: new DeliveriesRepository(doc, tableName(cfg, 'sessions')),
    dispatch: webhookDispatchFromConfig(cfg),
    post: postWebhook,
    now: () => new Date(),
    random: Math.random,
  };
});
