import type { WebhookDelivery } from '../../domain/webhooks/delivery';
import {
  deliveryIdOf,
  type WebhookEvent,
  type WebhookPayload,
  webhookWants,
} from '../../domain/webhooks/webhook';
import { logger } from '../../observability';
import type { SessionRecord } from '../../store/sessions/records';
import { sessionUrl } from '../sessions/session-context';
import type { WebhookContext } from './webhook-context';

/**
 * Publishing an event (docs/soar.md "Webhooks"): for every active webhook that wants it, one delivery
 * item (written with a condition: the outbox) and one dispatched attempt. Publishing the same event again
 * (an Express step run twice, the status-change backstop after MarkFailed, the sweeper racing the
 * workflow) finds the deliveries written and sends nothing more for them: each webhook gets the event
 * once, under one `webhook-id`. A delivery written but whose message was lost (the publisher died
 * between the two) is sent again by the next publication while it has had no attempt; the delivery
 * function's claim makes a doubled message one attempt.
 */
export interface WebhookEventInput {
  type: WebhookEvent;
  data: Record<string, unknown> & ({ session_id: string } | { incident_id: string });
  /** The key that started the session: webhooks limited to a key_id get only their key's events. */
  ownerKeyId?: string;
}

export async function publishWebhookEvent(
  ctx: WebhookContext,
  event: WebhookEventInput,
): Promise<{ dispatched: number }> {
  const toSend: WebhookDelivery[] = [];
  for (const delivery of await deliveriesOf(ctx, event)) {
    if (await ctx.deliveries.createOnce(delivery)) toSend.push(delivery);
    else {
      const existing = await ctx.deliveries.get(delivery.webhook_id, delivery.delivery_id);
      if (existing?.status === 'pending' && existing.attempts === 0) toSend.push(delivery);
    }
  }
  await dispatch(ctx, toSend);
  return { dispatched: toSend.length };
}

/** The deliveries the event makes: one per active webhook that wants it (none without a dispatch). */
async function deliveriesOf(ctx: WebhookContext, event: WebhookEventInput): Promise<WebhookDelivery[]> {
  if (!ctx.dispatch) return [];
  const webhooks = (await ctx.webhooks.list()).filter((w) => webhookWants(w, event.type, event.ownerKeyId));
  if (webhooks.length === 0) return [];
  const subject = String('session_id' in event.data ? event.data.session_id : event.data.incident_id);
  const at = ctx.now();
  const payload: WebhookPayload = { type: event.type, timestamp: at.toISOString(), data: event.data };
  const body = JSON.stringify(payload);
  return webhooks.map((webhook) => ({
    delivery_id: deliveryIdOf(webhook.webhook_id, { type: event.type, subject }),
    webhook_id: webhook.webhook_id,
    event: event.type,
    status: 'pending',
    attempts: 0,
    created_at: at.toISOString(),
    body,
  }));
}

/** Asks for the first attempt of each delivery. */
async function dispatch(
  ctx: WebhookContext,
  deliveries: readonly Pick<WebhookDelivery, 'webhook_id' | 'delivery_id'>[],
): Promise<void> {
  if (!ctx.dispatch || deliveries.length === 0) return;
  await ctx.dispatch.send(
    deliveries.map(({ webhook_id, delivery_id }) => ({
      message: { webhook_id, delivery_id, attempt: 1 },
      waitSeconds: 0,
    })),
  );
}

const STATUS_EVENTS: Record<string, WebhookEvent> = {
  completed: 'investigation.completed',
  failed: 'investigation.failed',
  canceled: 'investigation.canceled',
};

/** The event of a session that has ended: `{session_id, status, verdict, risk_score, session_url, entity}`. */
export function sessionEndedEvent(
  ctx: Pick<WebhookContext, 'cfg'>,
  session: SessionRecord,
): WebhookEventInput | undefined {
  const type = STATUS_EVENTS[session.status];
  if (!type) return undefined;
  const summary = session.report?.verdict !== undefined ? session.report : session.report_summary;
  return {
    type,
    ownerKeyId: session.owner_key_id,
    data: {
      session_id: session.session_id,
      status: session.status,
      verdict: summary?.verdict ?? null,
      risk_score: summary?.risk_score ?? null,
      session_url: sessionUrl(ctx.cfg, session.session_id),
      entity: session.entity,
      ...(session.failure_reason ? { reason: session.failure_reason } : {}),
      ...(session.completed_at ? { ended_at: session.completed_at } : {}),
    },
  };
}

/**
 * Publishes the event of an ended session, wherever it ended. `best-effort` (the cancel route, the
 * sweeper, the local restart) never throws: a failure is logged, and must not fail the cancel or
 * sweep that has already ended the session; the event is then sent by the next publication of the
 * same session, if any (a cancelled run's next step, the status-change backstop). `retry` (the
 * workflow's Persist and MarkFailed, the status-change function) throws PublishFailedError after
 * logging, so the state machine (or Lambda's async retries) runs the step again: the step finds
 * the session ended and publishes again until the outbox write and the send hold (at least once;
 * the outbox keeps it once per webhook).
 */
export class PublishFailedError extends Error {
  override readonly name = 'PublishFailedError';
}

export async function publishSessionEnded(
  ctx: WebhookContext,
  session: SessionRecord | undefined,
  onFailure: 'best-effort' | 'retry' = 'best-effort',
): Promise<void> {
  if (!session) return;
  const event = sessionEndedEvent(ctx, session);
  if (!event) return;
  try {
    await publishWebhookEvent(ctx, event);
  } catch (error) {
    logger.error('webhook event not published', { session_id: session.session_id, error: error as Error });
    if (onFailure === 'retry') {
      throw new PublishFailedError(`The webhook event of session ${session.session_id} was not published.`);
    }
  }
}

/**
 * The deliveries of a session's end, for the transaction that ends it (SessionsRepository.transition's
 * `outbox`): `ended` is the session as that transition leaves it. Written with the end, they cannot be
 * lost with a failed publication; dispatchSessionEnd then asks for their first attempts.
 */
export async function sessionEndOutbox(
  ctx: WebhookContext,
  ended: SessionRecord,
): Promise<WebhookDelivery[]> {
  const event = sessionEndedEvent(ctx, ended);
  return event ? deliveriesOf(ctx, event) : [];
}

/**
 * Sends the deliveries a session's ending transaction wrote (sessionEndOutbox). When the send fails,
 * `best-effort` (cancel, the sweeper, the local restart) logs it: the deliveries wait in the outbox
 * and the sweeper sends them again (redispatchOutbox); `retry` throws PublishFailedError, so the
 * step runs again and its publication (publishSessionEnded) sends them.
 */
export async function dispatchSessionEnd(
  ctx: WebhookContext,
  session: SessionRecord,
  outbox: readonly WebhookDelivery[],
  onFailure: 'best-effort' | 'retry' = 'best-effort',
): Promise<void> {
  try {
    await dispatch(ctx, outbox);
  } catch (error) {
    logger.error('webhook event not published', { session_id: session.session_id, error: error as Error });
    if (onFailure === 'retry') {
      throw new PublishFailedError(`The webhook event of session ${session.session_id} was not published.`);
    }
  }
}

/** An outbox delivery unclaimed this long after its creation had its first send lost. */
export const OUTBOX_REDISPATCH_SECONDS = 120;
/** Older outbox deliveries are left to their log's expiry (a receiver that long gone is not retried). */
const OUTBOX_REDISPATCH_WINDOW_SECONDS = 86_400;
const OUTBOX_REDISPATCH_BATCH = 100;

/**
 * The stale-session sweeper's second task: sends again the first attempt of every outbox delivery
 * (sessionEndOutbox) still unclaimed OUTBOX_REDISPATCH_SECONDS after its creation, up to a day old.
 * A send that was not lost after all makes a second message for the same attempt, which the
 * delivery function's claim drops: still one delivery per webhook. How many it sent again.
 */
export async function redispatchOutbox(ctx: WebhookContext, now: Date = ctx.now()): Promise<number> {
  if (!ctx.dispatch) return 0;
  const before = new Date(now.getTime() - OUTBOX_REDISPATCH_SECONDS * 1000).toISOString();
  const after = new Date(now.getTime() - OUTBOX_REDISPATCH_WINDOW_SECONDS * 1000).toISOString();
  const listed = await ctx.deliveries.listUnclaimed(after, before, OUTBOX_REDISPATCH_BATCH);
  const due: typeof listed = [];
  for (const entry of listed) {
    const current = await ctx.deliveries.get(entry.webhook_id, entry.delivery_id);
    if (current?.status === 'pending' && current.attempts === 0) due.push(entry);
  }
  await dispatch(ctx, due);
  return due.length;
}
