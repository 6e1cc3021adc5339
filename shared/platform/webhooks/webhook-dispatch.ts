import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Config } from '../../config';
import { ServiceUnavailableError } from '../../domain/core/errors';
import * as z from '../../zod';

/**
 * How a webhook delivery attempt reaches the delivery function (docs/soar.md "Webhooks"), with
 * nothing always on: an attempt due now is an asynchronous Lambda invoke (InvocationType Event) of
 * the delivery function; a later one (a retry) is a one-shot EventBridge Scheduler schedule,
 * `at(...)` in UTC, flexible time window off, deleted after it ran, that invokes the same function
 * with the same message. A message names one delivery and the attempt it asks for; the function
 * makes that attempt, and its claim makes a doubled message one attempt.
 *
 * Scheduler invokes with 60-second precision (within the minute its expression names), so on AWS the
 * time is rounded up to the next whole minute: a retry never comes before its wait (a receiver's
 * Retry-After holds), at most a minute after it. The local server (local/webhooks/scheduler.ts) fires at the
 * named second, and is given second precision. Locally both clients reach the local runtime's
 * servers through SIS_LAMBDA_ENDPOINT and SIS_SCHEDULER_ENDPOINT.
 */
export const WEBHOOK_MESSAGE_VERSION = 1;
export const SCHEDULER_PRECISION_SECONDS = 60;

export interface WebhookMessage {
  v: typeof WEBHOOK_MESSAGE_VERSION;
  webhook_id: string;
  delivery_id: string;
  /** The attempt this message asks for (1 for the first). */
  attempt: number;
}

export type WebhookAttempt = Omit<WebhookMessage, 'v'>;

export interface WebhookDispatch {
  /** Dispatches every attempt after its wait (seconds from now): 0 invokes now, more schedules. */
  send(attempts: readonly { message: WebhookAttempt; waitSeconds: number }[]): Promise<void>;
}

/** Where retries are scheduled: the tenant's schedule group, run with the role that may invoke only the function. */
export interface ScheduleTarget {
  group: string;
  roleArn: string;
}

/** One-shot schedule names are unique in their group: the same attempt of the same delivery is one schedule. */
export function scheduleNameOf(message: WebhookAttempt): string {
  return `${message.delivery_id}-attempt-${message.attempt}`;
}

/** `at(yyyy-mm-ddThh:mm:ss)` (UTC) for the first instant of `precisionSeconds` at or after `due`. */
export function atExpression(due: Date, precisionSeconds: number): string {
  const step = precisionSeconds * 1000;
  const at = new Date(Math.ceil(due.getTime() / step) * step);
  return `at(${at.toISOString().slice(0, 19)})`;
}

const unavailable = () =>
  new ServiceUnavailableError('Webhook delivery cannot be dispatched right now. Retry shortly.');

export class LambdaSchedulerDispatch implements WebhookDispatch {
  constructor(
    private readonly clients: { lambda: LambdaClient; scheduler: SchedulerClient },
    private readonly functionArn: string,
    private readonly schedules: ScheduleTarget | undefined,
    private readonly options: { precisionSeconds: number; now: () => Date } = {
      precisionSeconds: SCHEDULER_PRECISION_SECONDS,
      now: () => new Date(),
    },
  ) {}

  async send(attempts: readonly { message: WebhookAttempt; waitSeconds: number }[]): Promise<void> {
    // Side by side: one receiver's deliveries never wait for another's dispatch.
    await Promise.all(
      attempts.map(({ message, waitSeconds }) => {
        const body: WebhookMessage = { v: WEBHOOK_MESSAGE_VERSION, ...message };
        return waitSeconds > 0 ? this.schedule(body, waitSeconds) : this.invoke(body);
      }),
    );
  }

  private async invoke(message: WebhookMessage): Promise<void> {
    const answer = await this.clients.lambda.send(
      new InvokeCommand({
        FunctionName: this.functionArn,
        InvocationType: 'Event',
        Payload: new TextEncoder().encode(JSON.stringify(message)),
      }),
    );
    if (answer.StatusCode !== 202) throw unavailable();
  }

  private async schedule(message: WebhookMessage, waitSeconds: number): Promise<void> {
    if (!this.schedules) {
      throw new Error('SIS_WEBHOOK_SCHEDULE_GROUP is not set: this function cannot schedule retries.');
    }
    const due = new Date(this.options.now().getTime() + waitSeconds * 1000);
    try {
      await this.clients.scheduler.send(
        new CreateScheduleCommand({
          Name: scheduleNameOf(message),
          GroupName: this.schedules.group,
          ScheduleExpression: atExpression(due, this.options.precisionSeconds),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: this.functionArn,
            RoleArn: this.schedules.roleArn,
            Input: JSON.stringify(message),
          },
        }),
      );
    } catch (error) {
      // The same attempt scheduled twice (a doubled message retried): it is scheduled, once.
      if (error instanceof ConflictException) return;
      throw error;
    }
  }
}

/** The clients, once per configuration (webhookContext); undefined where no delivery function is set. */
export function webhookDispatchFromConfig(cfg: Config): WebhookDispatch | undefined {
  const functionArn = cfg.SIS_WEBHOOK_FUNCTION_ARN;
  if (!functionArn) return undefined;
  // The local servers accept any credentials, and an operator's machine may have none.
  const local = { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const lambda = new LambdaClient({
    region: cfg.AWS_REGION,
    maxAttempts: 4,
    ...(cfg.SIS_LAMBDA_ENDPOINT ? { endpoint: cfg.SIS_LAMBDA_ENDPOINT, ...local } : {}),
  });
  const scheduler = new SchedulerClient({
    region: cfg.AWS_REGION,
    maxAttempts: 4,
    ...(cfg.SIS_SCHEDULER_ENDPOINT ? { endpoint: cfg.SIS_SCHEDULER_ENDPOINT, ...local } : {}),
  });
  const group = cfg.SIS_WEBHOOK_SCHEDULE_GROUP;
  const roleArn = cfg.SIS_WEBHOOK_SCHEDULER_ROLE_ARN;
  return new LambdaSchedulerDispatch(
    { lambda, scheduler },
    functionArn,
    group && roleArn ? { group, roleArn } : undefined,
    {
      precisionSeconds: cfg.SIS_SCHEDULER_ENDPOINT ? 1 : SCHEDULER_PRECISION_SECONDS,
      now: () => new Date(),
    },
  );
}

/** A message as the delivery function accepts it: unknown fields dropped. */
const WebhookMessageSchema = z.object({
  v: z.literal(WEBHOOK_MESSAGE_VERSION),
  webhook_id: z.string(),
  delivery_id: z.string(),
  attempt: z.number().check(z.int(), z.gte(1)),
});

/** Reads a message again: the function's event is a trust boundary too. Undefined for a malformed one. */
export function decodeWebhookMessage(value: unknown): WebhookMessage | undefined {
  const parsed = z.safeParse(WebhookMessageSchema, value);
  return parsed.success ? parsed.data : undefined;
}
