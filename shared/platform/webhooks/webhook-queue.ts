import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../../config';
import { ServiceUnavailableError } from '../../domain/core/errors';

/**
 * The webhook delivery queue (SQS). A message names one delivery and the attempt it asks for; the
 * delivery function makes that attempt. SQS delays a message by at most 900 s, so a longer wait is a
 * chain: the message carries `not_before`, and a delivery function that receives it early sends it
 * on with the rest of the wait (at most 900 s each hop). docs/soar.md "Webhooks" gives the cost.
 * Locally the queue URL's origin is the in-process queue of the local runtime (local/sqs.ts).
 */
export const WEBHOOK_MESSAGE_VERSION = 1;
export const MAX_SQS_DELAY_SECONDS = 900;

export interface WebhookMessage {
  v: typeof WEBHOOK_MESSAGE_VERSION;
  webhook_id: string;
  delivery_id: string;
  /** The attempt this message asks for (1 for the first). */
  attempt: number;
  /** Epoch seconds before which the attempt must not be made (a chained wait). */
  not_before?: number;
}

export interface WebhookQueue {
  /** Sends every message, each after its wait (seconds from now; chained past 900 s). */
  send(
    messages: readonly { message: Omit<WebhookMessage, 'v' | 'not_before'>; waitSeconds: number }[],
  ): Promise<void>;
  /** Sends a message on, for the part of its wait still ahead. */
  resend(message: WebhookMessage, nowSeconds: number): Promise<void>;
}

function entryOf(message: WebhookMessage, nowSeconds: number, id: string) {
  const remaining = Math.max(0, Math.ceil((message.not_before ?? 0) - nowSeconds));
  return {
    Id: id,
    MessageBody: JSON.stringify(message),
    DelaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, remaining),
  };
}

export class SqsWebhookQueue implements WebhookQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
    private readonly nowSeconds: () => number = () => Date.now() / 1000,
  ) {}

  async send(
    messages: readonly { message: Omit<WebhookMessage, 'v' | 'not_before'>; waitSeconds: number }[],
  ): Promise<void> {
    const now = this.nowSeconds();
    const entries = messages.map(({ message, waitSeconds }, i) =>
      entryOf(
        {
          v: WEBHOOK_MESSAGE_VERSION,
          ...message,
          ...(waitSeconds > 0 ? { not_before: Math.ceil(now + waitSeconds) } : {}),
        },
        now,
        `m${i}`,
      ),
    );
    for (let start = 0; start < entries.length; start += 10) {
      const result = await this.sqs.send(
        new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries.slice(start, start + 10) }),
      );
      if (result.Failed?.length) {
        throw new ServiceUnavailableError('The webhook queue is not accepting messages. Retry shortly.');
      }
    }
  }

  async resend(message: WebhookMessage, nowSeconds: number): Promise<void> {
    const result = await this.sqs.send(
      new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: [entryOf(message, nowSeconds, 'm0')] }),
    );
    if (result.Failed?.length) {
      throw new ServiceUnavailableError('The webhook queue is not accepting messages. Retry shortly.');
    }
  }
}

export function webhookQueueFromConfig(cfg: Config): WebhookQueue | undefined {
  const queueUrl = cfg.SIS_WEBHOOK_QUEUE_URL;
  if (!queueUrl) return undefined;
  const sqs = new SQSClient({
    region: cfg.AWS_REGION,
    maxAttempts: 4,
    // Locally each in-process queue is its own endpoint, the origin of its URL.
    ...(cfg.SIS_SQS_ENDPOINT
      ? {
          endpoint: new URL(queueUrl).origin,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return new SqsWebhookQueue(sqs, queueUrl);
}

/** Reads a message again: the queue is a trust boundary too. Undefined for a malformed one. */
export function decodeWebhookMessage(body: string): WebhookMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const m = value as Partial<WebhookMessage> | null;
  if (
    !m ||
    m.v !== WEBHOOK_MESSAGE_VERSION ||
    typeof m.webhook_id !== 'string' ||
    typeof m.delivery_id !== 'string' ||
    !Number.isInteger(m.attempt) ||
    (m.attempt ?? 0) < 1 ||
    (m.not_before !== undefined && typeof m.not_before !== 'number')
  ) {
    return undefined;
  }
  return m as WebhookMessage;
}
