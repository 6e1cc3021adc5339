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
 * item (written with a condition: the outbox) and one dispatched attempt (an asynchronous invoke of
 * the delivery function). Publishing the same event again
 * (an Express step run twice, the status-change backstop after MarkFailed, the sweeper racing the
 * workflow) finds the deliveries written and sends nothing more for them: each webhook gets the event
 * once, under one `webhook-id`. A delivery written but whose message was lost (the publisher died
 * between the two) is dispatched again by the next publication while it has had no attempt; the delivery
 * function's claim makes a doubled invoke one attempt.
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
  if (!ctx.dispatch) return { dispatched: 0 };
  const webhooks = (await ctx.webhooks.list()).filter((w) => webhookWants(w, event.type, event.ownerKeyId));
  if (webhooks.length === 0) return { dispatched: 0 };
  const subject = String('session_id' in event.data ? event.data.session_id : event.data.incident_id);
  const at = ctx.now();
  const payload: WebhookPayload = { type: event.type, timestamp: at.toISOString(), data: event.data };
  const body = JSON.stringify(payload);
  const toSend: { webhook_id: string; delivery_id: string; attempt: number }[] = [];
  for (const webhook of webhooks) {
    const deliveryId = deliveryIdOf(webhook.webhook_id, { type: event.type, subject });
    const created = await ctx.deliveries.createOnce({
      delivery_id: deliveryId,
      webhook_id: webhook.webhook_id,
      event: event.type,
      status: 'pending',
      attempts: 0,
      created_at: at.toISOString(),
      body,
    });
    if (created) toSend.push({ webhook_id: webhook.webhook_id, delivery_id: deliveryId, attempt: 1 });
    else {
      const existing = await ctx.deliveries.get(webhook.webhook_id, deliveryId);
      if (existing?.status === 'pending' && existing.attempts === 0) {
        toSend.push({ webhook_id: webhook.webhook_id, delivery_id: deliveryId, attempt: 1 });
      }
    }
  }
  if (toSend.length > 0) await ctx.dispatch.send(toSend.map((message) => ({ message, waitSeconds: 0 })));
  return { dispatched: toSend.length };
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
