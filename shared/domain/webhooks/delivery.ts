import type { WebhookEvent } from './webhook';

/**
 * One event's delivery to one webhook and what became of it (the webhook's delivery log).
 *
 * - `pending`: queued, not yet attempted; `retrying`: an attempt failed, another is scheduled;
 *   `delivering`: an attempt holds the claim (its sender may have died: the claim expires);
 * - `delivered`: a 2xx; `failed`: attempts exhausted (the message goes to the dead-letter queue);
 *   `abandoned`: the webhook was disabled or removed before it could be delivered.
 */
export const DELIVERY_STATUSES = [
  'pending',
  'delivering',
  'retrying',
  'delivered',
  'failed',
  'abandoned',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookDelivery {
  delivery_id: string;
  webhook_id: string;
  event: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  last_status_code?: number;
  last_error?: string;
  last_attempt_at?: string;
  created_at: string;
  /** The signed body, kept so every attempt sends the same bytes. */
  body: string;
}

/** What one attempt's answer means for the delivery. */
export type AttemptOutcome =
  | { kind: 'delivered'; statusCode: number }
  | { kind: 'disable'; statusCode: 410 }
  | { kind: 'retry'; statusCode?: number; retryAfterSeconds?: number; error?: string };

/**
 * Standard Webhooks: 2xx is success; 410 Gone disables the endpoint; anything else (3xx included:
 * redirects are not followed), a time-out or a dropped connection is retried.
 */
export function outcomeOfAnswer(statusCode: number, retryAfterSeconds: number | undefined): AttemptOutcome {
  if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered', statusCode };
  if (statusCode === 410) return { kind: 'disable', statusCode };
  return { kind: 'retry', statusCode, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

/** Retry-After as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
