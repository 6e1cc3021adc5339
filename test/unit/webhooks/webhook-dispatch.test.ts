import { LambdaClient } from '@aws-sdk/client-lambda';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalLambda, startLocalLambda } from '../../../local/webhooks/lambda-invoke';
import { type LocalScheduler, startLocalScheduler } from '../../../local/webhooks/scheduler';
import { parseConfig } from '../../../shared/config';
import {
  atExpression,
  decodeWebhookMessage,
  LambdaSchedulerDispatch,
  SCHEDULER_PRECISION_SECONDS,
  webhookDispatchFromConfig,
} from '../../../shared/platform/webhooks/webhook-dispatch';

/**
 * The dispatch adapter with the real @aws-sdk/client-lambda and @aws-sdk/client-scheduler against the
 * local runtime's servers of their wire formats (local/webhooks/lambda-invoke.ts, local/webhooks/scheduler.ts): what
 * Invoke and CreateSchedule receive. The function behind the local Lambda records its events.
 */
const FUNCTION = 'sis-test-deliver-webhook';
const FUNCTION_ARN = `arn:aws:lambda:us-east-1:000000000000:function:${FUNCTION}`;
const SCHEDULES = {
  group: 'sis-test-webhooks',
  roleArn: 'arn:aws:iam::000000000000:role/sis-test-scheduler',
};
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

let lambda: LocalLambda;
let scheduler: LocalScheduler;
let clients: { lambda: LambdaClient; scheduler: SchedulerClient };
const events: unknown[] = [];
let nextEvent: ((event: unknown) => void) | undefined;

beforeAll(async () => {
  lambda = await startLocalLambda({
    functions: {
      [FUNCTION]: async () => async (event) => {
        events.push(event);
        nextEvent?.(event);
        return null;
      },
    },
  });
  scheduler = await startLocalScheduler({ invoke: (arn, input) => lambda.invokeAsync(arn, input) });
  clients = {
    lambda: new LambdaClient({ region: 'us-east-1', endpoint: lambda.endpoint, credentials, maxAttempts: 1 }),
    scheduler: new SchedulerClient({
      region: 'us-east-1',
      endpoint: scheduler.endpoint,
      credentials,
      maxAttempts: 1,
    }),
  };
});

afterAll(async () => {
  await scheduler?.stop();
  await lambda?.stop();
});

beforeEach(async () => {
  await lambda.idle();
  events.length = 0;
});

const invoked = () => new Promise<unknown>((done) => (nextEvent = done));
const at = (iso: string) => () => new Date(iso);
const attempt = (delivery: string, n: number) => ({ webhook_id: 'wh_a', delivery_id: delivery, attempt: n });

describe('LambdaSchedulerDispatch', () => {
  it('invokes the delivery function asynchronously (Event, 202) with the message for an attempt due now', async () => {
    const dispatch = new LambdaSchedulerDispatch(clients, FUNCTION_ARN, SCHEDULES);
    const seen = invoked();
    await dispatch.send([{ message: attempt('msg_now', 1), waitSeconds: 0 }]);
    expect(await seen).toEqual({ v: 1, webhook_id: 'wh_a', delivery_id: 'msg_now', attempt: 1 });
    expect(scheduler.created().some((s) => s.name.startsWith('msg_now'))).toBe(false);
  });

  it('schedules a later attempt once: at(...) rounded up to the minute, the function and role, the message, deleted after', async () => {
    // A clock in the past: the local scheduler fires the schedule at once, so its target really runs.
    const dispatch = new LambdaSchedulerDispatch(clients, FUNCTION_ARN, SCHEDULES, {
      precisionSeconds: SCHEDULER_PRECISION_SECONDS,
      now: at('2026-01-05T10:00:00.500Z'),
    });
    const seen = invoked();
    await dispatch.send([{ message: attempt('msg_later', 2), waitSeconds: 5 }]);
    const message = { v: 1, webhook_id: 'wh_a', delivery_id: 'msg_later', attempt: 2 };
    const [schedule, ...more] = scheduler.created().filter((s) => s.name === 'msg_later-attempt-2');
    expect(more).toEqual([]);
    expect(schedule).toMatchObject({
      group: SCHEDULES.group,
      expression: 'at(2026-01-05T10:01:00)',
      timezone: 'UTC',
      flexibleTimeWindow: { Mode: 'OFF' },
      actionAfterCompletion: 'DELETE',
      target: { Arn: FUNCTION_ARN, RoleArn: SCHEDULES.roleArn },
    });
    expect(JSON.parse(schedule?.target.Input ?? '')).toEqual(message);
    expect(await seen).toEqual(message);
  });

  it('schedules the same attempt once while it waits: a doubled message retried is not an error (409)', async () => {
    const dispatch = new LambdaSchedulerDispatch(clients, FUNCTION_ARN, SCHEDULES, {
      precisionSeconds: SCHEDULER_PRECISION_SECONDS,
      now: at('2030-01-01T00:00:00.000Z'),
    });
    await dispatch.send([{ message: attempt('msg_twice', 2), waitSeconds: 5 }]);
    await dispatch.send([{ message: attempt('msg_twice', 2), waitSeconds: 5 }]);
    expect(scheduler.created().filter((s) => s.name === 'msg_twice-attempt-2')).toHaveLength(1);
  });

  it('sends a batch side by side: one invoke and one schedule', async () => {
    const dispatch = new LambdaSchedulerDispatch(clients, FUNCTION_ARN, SCHEDULES, {
      precisionSeconds: 1,
      now: at('2030-01-01T00:00:00.000Z'),
    });
    await dispatch.send([
      { message: attempt('msg_b1', 1), waitSeconds: 0 },
      { message: attempt('msg_b2', 3), waitSeconds: 30 },
    ]);
    await lambda.idle();
    const batch = (events as { delivery_id?: string }[]).filter((e) => e.delivery_id?.startsWith('msg_b'));
    expect(batch).toEqual([{ v: 1, webhook_id: 'wh_a', delivery_id: 'msg_b1', attempt: 1 }]);
    expect(scheduler.created().find((s) => s.name === 'msg_b2-attempt-3')?.expression).toBe(
      'at(2030-01-01T00:00:30)',
    );
  });

  it('fails the dispatch when Lambda refuses the invoke, and without a schedule group for a retry', async () => {
    const unknown = new LambdaSchedulerDispatch(clients, `${FUNCTION_ARN}-gone`, SCHEDULES);
    await expect(unknown.send([{ message: attempt('msg_x', 1), waitSeconds: 0 }])).rejects.toThrow(
      /Function not found/,
    );
    const unscheduled = new LambdaSchedulerDispatch(clients, FUNCTION_ARN, undefined);
    await expect(unscheduled.send([{ message: attempt('msg_y', 2), waitSeconds: 5 }])).rejects.toThrow(
      /SIS_WEBHOOK_SCHEDULE_GROUP/,
    );
  });
});

describe('webhookDispatchFromConfig', () => {
  it('is absent without a delivery function; locally schedules to the second through the endpoints', async () => {
    expect(webhookDispatchFromConfig(parseConfig({ AWS_REGION: 'us-east-1' }))).toBeUndefined();
    const dispatch = webhookDispatchFromConfig(
      parseConfig({
        AWS_REGION: 'us-east-1',
        SIS_LAMBDA_ENDPOINT: lambda.endpoint,
        SIS_SCHEDULER_ENDPOINT: scheduler.endpoint,
        SIS_WEBHOOK_FUNCTION_ARN: FUNCTION_ARN,
        SIS_WEBHOOK_SCHEDULE_GROUP: SCHEDULES.group,
        SIS_WEBHOOK_SCHEDULER_ROLE_ARN: SCHEDULES.roleArn,
      }),
    );
    const before = Date.now();
    await dispatch?.send([{ message: attempt('msg_cfg', 2), waitSeconds: 3600 }]);
    const schedule = scheduler.created().find((s) => s.name === 'msg_cfg-attempt-2');
    // Second precision locally (AWS: the next whole minute), never before the wait.
    expect(schedule?.dueAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3_600_000);
    expect(schedule?.dueAt).toBeLessThanOrEqual(Date.now() + 3_601_000);
    expect(schedule?.group).toBe(SCHEDULES.group);
  });
});

describe('atExpression and decodeWebhookMessage', () => {
  it('rounds up to the precision, never down', () => {
    expect(atExpression(new Date('2026-01-05T10:01:00.000Z'), 60)).toBe('at(2026-01-05T10:01:00)');
    expect(atExpression(new Date('2026-01-05T10:01:00.001Z'), 60)).toBe('at(2026-01-05T10:02:00)');
    expect(atExpression(new Date('2026-01-05T10:01:00.001Z'), 1)).toBe('at(2026-01-05T10:01:01)');
  });

  it('reads back a message and refuses anything else', () => {
    const message = { v: 1, webhook_id: 'wh_a', delivery_id: 'msg_1', attempt: 1 };
    expect(decodeWebhookMessage({ ...message, extra: true })).toEqual(message);
    for (const bad of [
      null,
      'text',
      { ...message, v: 2 },
      { ...message, attempt: 0 },
      { ...message, attempt: 1.5 },
      { ...message, delivery_id: 7 },
      { Records: [{ body: JSON.stringify(message) }] },
    ]) {
      expect(decodeWebhookMessage(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});
