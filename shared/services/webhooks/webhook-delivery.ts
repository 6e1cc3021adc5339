import { Webhook as StandardWebhook } from 'standardwebhooks';
import { type AttemptOutcome, outcomeOfAnswer, parseRetryAfter } from '../../domain/webhooks/delivery';
import { nextRetryWait } from '../../domain/webhooks/retry-schedule';
import { decodeWebhookMessage, type WebhookMessage } from '../../platform/webhooks/webhook-queue';
import type { WebhookContext } from './webhook-context';
import { DELIVERY_ACTOR, webhookAudit } from './webhooks';

/**
 * One attempt of one delivery (the delivery function, one queue message each): claim the attempt,
 * sign the stored body with the webhook's current secret (npm `standardwebhooks`, the Standard
 * Webhooks reference library: `webhook-id` is the delivery's ID on every attempt), POST it through
 * the outbound door (platform/webhooks/webhook-http.ts: the address checked again and pinned, no redirects,
 * a byte cap, SIS_WEBHOOK_TIMEOUT_SECONDS), then record the outcome: delivered; 410 disables the
 * webhook; anything else waits for the next attempt of SIS_WEBHOOK_RETRY_SCHEDULE (with jitter,
 * Retry-After honoured) or, when the schedule is spent, fails the delivery and sends its message to
 * the dead-letter queue (the alarm).
 */
export class MalformedWebhookMessageError extends Error {}

/** Thrown for a delivery whose attempts are spent: the queue redelivers it into its DLQ. */
export class DeliveryExhaustedError extends Error {}

export type AttemptResult =
  | 'waiting'
  | 'duplicate'
  | 'abandoned'
  | 'delivered'
  | 'disabled'
  | 'retry scheduled';

/** Seconds past the attempt's time limit a claim holds before another consumer may take it over. */
const CLAIM_MARGIN_SECONDS = 30;

export async function deliverWebhookMessage(ctx: WebhookContext, body: string): Promise<AttemptResult> {
  const message = decodeWebhookMessage(body);
  if (!message) throw new MalformedWebhookMessageError('not a webhook delivery message');
  const now = ctx.now();
  const nowSeconds = now.getTime() / 1000;
  if (message.not_before !== undefined && message.not_before > nowSeconds) {
    await requireQueue(ctx).resend(message, nowSeconds);
    return 'waiting';
  }
  const webhook = await ctx.webhooks.get(message.webhook_id);
  const timeoutSeconds = ctx.cfg.SIS_WEBHOOK_TIMEOUT_SECONDS;
  const delivery = await ctx.deliveries.claimAttempt(
    message.webhook_id,
    message.delivery_id,
    message.attempt,
    Math.floor(nowSeconds),
    timeoutSeconds + CLAIM_MARGIN_SECONDS,
  );
  if (!delivery) return await alreadyHandled(ctx, message);
  const secret = webhook?.status === 'active' ? await ctx.webhooks.secretOf(message.webhook_id) : undefined;
  if (!webhook || !secret) {
    await ctx.deliveries.recordAttempt(message.webhook_id, message.delivery_id, {
      status: 'abandoned',
      at: now.toISOString(),
      error: webhook ? 'the webhook is disabled' : 'the webhook was removed',
    });
    return 'abandoned';
  }

  const signedAt = ctx.now();
  const signature = new StandardWebhook(secret).sign(delivery.delivery_id, signedAt, delivery.body);
  const answer = await ctx.post(
    {
      url: webhook.url,
      body: delivery.body,
      headers: {
        'webhook-id': delivery.delivery_id,
        'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
    },
    { timeoutMs: timeoutSeconds * 1000, allowLoopback: ctx.cfg.SIS_WEBHOOK_ALLOW_LOOPBACK },
    ...(ctx.resolve ? [ctx.resolve] : []),
  );
  const at = ctx.now();
  const outcome: AttemptOutcome =
    answer.kind === 'answered'
      ? outcomeOfAnswer(answer.statusCode, parseRetryAfter(answer.retryAfter, at))
      : { kind: 'retry', error: answer.reason };
  const recorded = {
    at: at.toISOString(),
    ...('statusCode' in outcome && outcome.statusCode !== undefined
      ? { statusCode: outcome.statusCode }
      : {}),
  };

  if (outcome.kind === 'delivered') {
    await ctx.deliveries.recordAttempt(message.webhook_id, message.delivery_id, {
      status: 'delivered',
      ...recorded,
    });
    return 'delivered';
  }
  if (outcome.kind === 'disable') {
    const reason = `the receiver answered 410 Gone at ${recorded.at}`;
    await ctx.webhooks.disable(
      message.webhook_id,
      reason,
      webhookAudit('webhook_disable', message.webhook_id, DELIVERY_ACTOR, at, {
        reason,
        delivery_id: message.delivery_id,
      }),
    );
    await ctx.deliveries.recordAttempt(message.webhook_id, message.delivery_id, {
      status: 'abandoned',
      ...recorded,
      error: 'the receiver answered 410 Gone: the webhook is disabled',
    });
    return 'disabled';
  }
  const wait = nextRetryWait(
    ctx.cfg.SIS_WEBHOOK_RETRY_SCHEDULE,
    message.attempt,
    outcome.retryAfterSeconds,
    ctx.random,
  );
  const error = outcome.error ?? `the receiver answered ${outcome.statusCode}`;
  if (wait === undefined) {
    await ctx.deliveries.recordAttempt(message.webhook_id, message.delivery_id, {
      status: 'failed',
      ...recorded,
      error,
    });
    throw new DeliveryExhaustedError(
      `delivery ${message.delivery_id} failed after ${message.attempt} attempts`,
    );
  }
  // The next attempt is queued before this one is recorded: a crash in between leaves a claim that
  // expires, never a delivery with no message.
  await requireQueue(ctx).send([
    {
      message: {
        webhook_id: message.webhook_id,
        delivery_id: message.delivery_id,
        attempt: message.attempt + 1,
      },
      waitSeconds: wait,
    },
  ]);
  await ctx.deliveries.recordAttempt(message.webhook_id, message.delivery_id, {
    status: 'retrying',
    ...recorded,
    error,
  });
  return 'retry scheduled';
}

/**
 * The claim was refused: a doubled message (another consumer made or holds this attempt), or the
 * delivery has ended. A delivery that failed on this very attempt keeps its message failing, so the
 * queue moves it to the dead-letter queue after its receive count.
 */
async function alreadyHandled(ctx: WebhookContext, message: WebhookMessage): Promise<AttemptResult> {
  const delivery = await ctx.deliveries.get(message.webhook_id, message.delivery_id);
  if (delivery?.status === 'failed' && delivery.attempts === message.attempt) {
    throw new DeliveryExhaustedError(
      `delivery ${message.delivery_id} failed after ${message.attempt} attempts`,
    );
  }
  return 'duplicate';
}

function requireQueue(ctx: WebhookContext) {
  if (!ctx.queue)
    throw new Error('SIS_WEBHOOK_QUEUE_URL is not set: this function cannot schedule deliveries.');
  return ctx.queue;
}
