import { createHash } from 'node:crypto';

/**
 * Webhook subscriptions (docs/soar.md "Webhooks"): an admin names an https URL and the events it
 * wants; each matching event is POSTed to it, signed per Standard Webhooks with the webhook's secret.
 * A webhook with `key_id` receives only the events of sessions that key started. The vocabulary the
 * console's form also needs is in webhook-events.ts (no node:crypto there).
 */
import type { WebhookEvent, WebhookStatus } from './webhook-events';

export {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENTS,
  WEBHOOK_STATUSES,
  type WebhookEvent,
  type WebhookStatus,
} from './webhook-events';

/** A tenant's webhooks are listed (and matched against every event) in one Query page. */
export const MAX_WEBHOOKS = 50;
/** How long a delivery stays in the webhook's delivery log (DynamoDB TTL). */
export const DELIVERY_LOG_DAYS = 30;

export interface Webhook {
  webhook_id: string;
  url: string;
  events: WebhookEvent[];
  description: string;
  key_id?: string;
  status: WebhookStatus;
  /** Why the webhook was disabled (a 410 from the receiver). */
  disabled_reason?: string;
  created_at: string;
  created_by: string;
  secret_rotated_at?: string;
}

export interface WebhookInput {
  url: string;
  events: readonly WebhookEvent[];
  description: string;
  key_id?: string;
}

/**
 * The same URL with the same events is one subscription: the fingerprint is what a second one
 * would collide on (events sorted and deduplicated, so their order does not matter).
 */
export function subscriptionFingerprint(url: string, events: readonly WebhookEvent[]): string {
  const canonical = `${new URL(url).href}\n${[...new Set(events)].sort().join(',')}`;
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 32);
}

export function newWebhook(input: WebhookInput, webhookId: string, actor: string, now: Date): Webhook {
  return {
    webhook_id: webhookId,
    url: new URL(input.url).href,
    events: [...new Set(input.events)].sort() as WebhookEvent[],
    description: input.description,
    ...(input.key_id ? { key_id: input.key_id } : {}),
    status: 'active',
    created_at: now.toISOString(),
    created_by: actor,
  };
}

/** Whether an event of a session started by `ownerKeyId` goes to this webhook. */
export function webhookWants(webhook: Webhook, type: WebhookEvent, ownerKeyId: string | undefined): boolean {
  if (webhook.status !== 'active' || !webhook.events.includes(type)) return false;
  return webhook.key_id === undefined || webhook.key_id === ownerKeyId;
}

/** One event: its type and the thing it is about (a session, an incident). */
export interface WebhookEventKey {
  type: WebhookEvent;
  /** The session ID for investigation events, the incident ID for `incident.enriched`. */
  subject: string;
}

/**
 * The `webhook-id` of one event's delivery to one webhook: derived, so an event published twice (an
 * Express step run twice, a sweeper racing the workflow) is the same delivery with the same ID, and
 * every retry of it carries that ID (the receiver's idempotency key).
 */
export function deliveryIdOf(webhookId: string, event: WebhookEventKey): string {
  const digest = createHash('sha256').update(`${webhookId}\n${event.type}\n${event.subject}`).digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}

/** The body every receiver gets: the Standard Webhooks convention `{type, timestamp, data}`. */
export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  data: Record<string, unknown>;
}
