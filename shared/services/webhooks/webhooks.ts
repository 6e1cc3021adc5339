import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../domain/core/errors';
import { randomIdentifier } from '../../domain/keys/api-key';
import type { Caller } from '../../domain/keys/scopes';
import type { WebhookDelivery } from '../../domain/webhooks/delivery';
import {
  MAX_WEBHOOKS,
  newWebhook,
  subscriptionFingerprint,
  type Webhook,
  type WebhookInput,
} from '../../domain/webhooks/webhook';
import { resolveWebhookUrl } from '../../platform/webhooks/webhook-http';
import type { WebhookContext } from './webhook-context';

/**
 * Webhook administration (admin API keys and console admins; docs/soar.md "Webhooks"). The secret
 * (`whsec_` + 32 random bytes in base64, the Standard Webhooks form) is returned by create and
 * rotate only; listings never carry it. The URL is checked before anything is stored: https, and
 * every address its host resolves to public (checked again at every delivery).
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const DELIVERIES_LISTED = 100;

function newSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function actorOf(caller: Caller): string {
  return caller.user ? `user:${caller.user.username}` : `key:${caller.keyId}`;
}

export async function createWebhook(
  ctx: WebhookContext,
  caller: Caller,
  input: WebhookInput,
): Promise<{ webhook: Webhook; secret: string }> {
  await resolveWebhookUrl(
    input.url,
    { allowLoopback: ctx.cfg.SIS_WEBHOOK_ALLOW_LOOPBACK },
    ...(ctx.resolve ? [ctx.resolve] : []),
  );
  if ((await ctx.webhooks.list()).length >= MAX_WEBHOOKS) {
    throw new ConflictError(`A tenant may have at most ${MAX_WEBHOOKS} webhooks: remove one first.`);
  }
  const webhook = newWebhook(input, `wh_${randomIdentifier()}`, actorOf(caller), ctx.now());
  const secret = newSecret();
  await ctx.webhooks.create(webhook, subscriptionFingerprint(webhook.url, webhook.events), secret);
  return { webhook, secret };
}

export async function listWebhooks(ctx: WebhookContext): Promise<{ webhooks: Webhook[] }> {
  return { webhooks: await ctx.webhooks.list() };
}

export async function removeWebhook(ctx: WebhookContext, webhookId: string): Promise<void> {
  await ctx.webhooks.remove(webhookId);
}

/** A new secret; from now on only it signs (deliveries read the secret at each attempt). */
export async function rotateWebhookSecret(
  ctx: WebhookContext,
  webhookId: string,
): Promise<{ secret: string }> {
  const secret = newSecret();
  await ctx.webhooks.rotateSecret(webhookId, secret, ctx.now().toISOString());
  return { secret };
}

export async function listWebhookDeliveries(
  ctx: WebhookContext,
  webhookId: string,
): Promise<{ deliveries: Omit<WebhookDelivery, 'body' | 'webhook_id'>[] }> {
  if (!(await ctx.webhooks.get(webhookId))) throw new NotFoundError('No webhook with this ID.');
  const deliveries = await ctx.deliveries.list(webhookId, DELIVERIES_LISTED);
  return {
    deliveries: deliveries.map(({ body: _body, webhook_id: _webhook, ...rest }) => rest),
  };
}
