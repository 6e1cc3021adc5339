import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../domain/core/errors';
import { randomIdentifier } from '../../domain/keys/api-key';
import type { AdminAction, AuditEntry } from '../../domain/keys/key-lifecycle';
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

/** The actor of the changes the delivery function makes (a 410 disables the webhook). */
export const DELIVERY_ACTOR = 'system:webhook-delivery';

/**
 * The admin audit entry of a webhook change (docs/soar.md "Webhooks"): `key_id` names the webhook,
 * details are non-secret facts (URL, events, key_id limit); a secret is never in it.
 */
export function webhookAudit(
  action: Extract<AdminAction, `webhook_${string}`>,
  webhookId: string,
  actor: string,
  at: Date,
  details: AuditEntry['details'] = {},
): AuditEntry {
  return { audit_id: randomIdentifier(), at: at.toISOString(), action, key_id: webhookId, actor, details };
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
  const at = ctx.now();
  const webhook = newWebhook(input, `wh_${randomIdentifier()}`, actorOf(caller), at);
  const secret = newSecret();
  const audit = webhookAudit('webhook_create', webhook.webhook_id, actorOf(caller), at, {
    url: webhook.url,
    events: [...webhook.events],
    limited_to_key: webhook.key_id ?? null,
  });
  await ctx.webhooks.create(webhook, subscriptionFingerprint(webhook.url, webhook.events), secret, audit);
  return { webhook, secret };
}

export async function listWebhooks(ctx: WebhookContext): Promise<{ webhooks: Webhook[] }> {
  return { webhooks: await ctx.webhooks.list() };
}

export async function removeWebhook(ctx: WebhookContext, caller: Caller, webhookId: string): Promise<void> {
  await ctx.webhooks.remove(webhookId, webhookAudit('webhook_remove', webhookId, actorOf(caller), ctx.now()));
}

/** A new secret; from now on only it signs (deliveries read the secret at each attempt). */
export async function rotateWebhookSecret(
  ctx: WebhookContext,
  caller: Caller,
  webhookId: string,
): Promise<{ secret: string }> {
  const secret = newSecret();
  const at = ctx.now();
  const audit = webhookAudit('webhook_rotate_secret', webhookId, actorOf(caller), at);
  await ctx.webhooks.rotateSecret(webhookId, secret, at.toISOString(), audit);
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
