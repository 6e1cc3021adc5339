import { Webhook as StandardWebhook } from 'standardwebhooks';
import { type AttemptOutcome, outcomeOfAnswer, parseRetryAfter } from '../../domain/webhooks/delivery';
import { nextRetryWait } from '../../domain/webhooks/retry-schedule';
import { logAlarmedFailure } from '../../observability';
import { decodeWebhookMessage } from '../../platform/webhooks/webhook-dispatch';
import type { WebhookContext } from './webhook-context';
import { DELIVERY_ACTOR, webhookAudit } from './webhooks';

/**
 * One attempt of one delivery (the delivery function, invoked with one message: asynchronously for
 * the first attempt, by a one-shot schedule for a retry): claim the attempt, sign the stored body
 * with the webhook's current secret (npm `standardwebhooks`, the Standard Webhooks reference
 * library: `webhook-id` is the delivery's ID on every attempt), POST it through the outbound door
 * (platform/webhooks/webhook-http.ts: the address checked again and pinned, no redirects, a byte
 * cap, SIS_WEBHOOK_TIMEOUT_SECONDS), then record the outcome: delivered; 410 disables the webhook;
 * anything else schedules the next attempt of SIS_WEBHOOK_RETRY_SCHEDULE (with jitter, Retry-After
 * honoured) or, when the schedule is spent, fails the delivery and reports it to the tenant's
 * failures alarm (ALARMED_FAILURE: the dead-letter path, with no queue or alarm of its own).
 */
export type AttemptResult =
  | 'malformed'
  | 'duplicate'
  | 'abandoned'
  | 'delivered'
  | 'disabled'
  | 'retry scheduled'
  | 'failed';

/** Seconds past the attempt's time limit a claim holds before another consumer may take it over. */
const CLAIM_MARGIN_SECONDS = 30;

export async function deliverWebhookMessage(ctx: WebhookContext, event: unknown): Promise<AttemptResult> {
  const message = decodeWebhookMessage(event);
  if (!message) {
    // Only this stack's publishers and schedules invoke the function: a malformed event is a bug to
    // page someone about, not one to retry.
    logAlarmedFailure('webhook delivery event malformed', {});
    return 'malformed';
  }
  const now = ctx.now();
  const nowSeconds = now.getTime() / 1000;
  const webhook = await ctx.webhooks.get(message.webhook_id);
  const timeoutSeconds = ctx.cfg.SIS_WEBHOOK_TIMEOUT_SECONDS;
  const delivery = await ctx.deliveries.claimAttempt(
    message.webhook_id,
    message.delivery_id,
    message.attempt,
    Math.floor(nowSeconds),
    timeoutSeconds + CLAIM_MARGIN_SECONDS,
  );
  // Refused: a doubled message (another invocation made or holds this attempt), or the delivery ended.
  if (!delivery) return 'duplicate';
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
    logAlarmedFailure('webhook delivery failed: its retries are spent', {
      webhook_id: message.webhook_id,
      delivery_id: message.delivery_id,
      attempts: message.attempt,
      error,
    });
    return 'failed';
  }
  // The next attempt is scheduled before this one is recorded: a crash in between leaves a claim
  // that expires, never a delivery with no schedule.
  await requireDispatch(ctx).send([
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

function requireDispatch(ctx: WebhookContext) {
  if (!ctx.dispatch)
    throw new Error('SIS_WEBHOOK_FUNCTION_ARN is not set: this function cannot schedule deliveries.');
  return ctx.dispatch;
}
