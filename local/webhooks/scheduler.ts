import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../step-functions-support';

/**
 * The local runtime's EventBridge Scheduler: the one operation the service calls, `CreateSchedule`
 * (REST-JSON, `POST /schedules/{Name}`), on 127.0.0.1, so the real `@aws-sdk/client-scheduler`
 * reaches it with `endpoint: SIS_SCHEDULER_ENDPOINT` as it reaches Scheduler. One-time schedules only
 * (`at(yyyy-mm-ddThh:mm:ss)`, UTC), as the service creates them: at that second (AWS: within that
 * minute) the target is invoked with the schedule's `Input`, through `invoke` (the local Lambda's
 * asynchronous invoke, as Scheduler's Lambda target is); `ActionAfterCompletion: DELETE` then removes
 * the schedule. A name already taken in its group is Scheduler's 409 ConflictException.
 */
export interface CreatedSchedule {
  name: string;
  group: string;
  expression: string;
  timezone?: string;
  flexibleTimeWindow?: { Mode?: string };
  actionAfterCompletion?: string;
  target: { Arn: string; RoleArn: string; Input?: string };
  createdAt: number;
  /** When the target is invoked (epoch ms). */
  dueAt: number;
}

export interface LocalScheduler {
  endpoint: string;
  /** Every schedule created so far, fired or not, oldest first (tests read what CreateSchedule received). */
  created(): readonly CreatedSchedule[];
  /** Schedules still waiting to fire. */
  pending(): number;
  stop(): Promise<void>;
}

/** The CreateSchedule request fields the service sends (the rest are not read here). */
interface CreateScheduleBody {
  GroupName?: string;
  ScheduleExpression?: string;
  ScheduleExpressionTimezone?: string;
  FlexibleTimeWindow?: { Mode?: string };
  ActionAfterCompletion?: string;
  Target?: Partial<CreatedSchedule['target']>;
}

const AT = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;
const NAME = /^[0-9a-zA-Z_.-]{1,64}$/;
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function startLocalScheduler(options: {
  invoke: (targetArn: string, input: unknown) => void;
  region?: string;
  onError?: (error: unknown) => void;
}): Promise<LocalScheduler> {
  const created: CreatedSchedule[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  /** Schedules that exist: waiting, or fired and kept (ActionAfterCompletion NONE). */
  const existing = new Set<string>();
  const region = options.region ?? 'us-east-1';

  const fire = (key: string, schedule: CreatedSchedule) => {
    timers.delete(key);
    if (schedule.actionAfterCompletion === 'DELETE') existing.delete(key);
    try {
      options.invoke(schedule.target.Arn, JSON.parse(schedule.target.Input ?? '{}'));
    } catch (error) {
      options.onError?.(error);
    }
  };

  const create = (name: string, body: CreateScheduleBody): [number, unknown, string?] => {
    const group = typeof body.GroupName === 'string' ? body.GroupName : 'default';
    const at = AT.exec(String(body.ScheduleExpression ?? ''));
    const target = body.Target;
    if (!NAME.test(name) || !at || !target?.Arn || !target.RoleArn || !body.FlexibleTimeWindow?.Mode) {
      return [
        400,
        { Message: 'Invalid schedule: one-time at(...) expressions, a target and a window only' },
        'ValidationException',
      ];
    }
    if ((body.ScheduleExpressionTimezone ?? 'UTC') !== 'UTC') {
      return [400, { Message: 'The local scheduler evaluates at(...) in UTC only' }, 'ValidationException'];
    }
    const key = `${group}/${name}`;
    if (existing.has(key)) return [409, { Message: `Schedule ${name} already exists.` }, 'ConflictException'];
    const schedule: CreatedSchedule = {
      name,
      group,
      expression: at[0],
      ...(body.ScheduleExpressionTimezone ? { timezone: body.ScheduleExpressionTimezone } : {}),
      flexibleTimeWindow: body.FlexibleTimeWindow,
      ...(body.ActionAfterCompletion ? { actionAfterCompletion: body.ActionAfterCompletion } : {}),
      target: { Arn: target.Arn, RoleArn: target.RoleArn, ...(target.Input ? { Input: target.Input } : {}) },
      createdAt: Date.now(),
      dueAt: Date.parse(`${at[1]}Z`),
    };
    created.push(schedule);
    // Node fires a timer longer than MAX_TIMER_MS at once: a far schedule waits in steps.
    const arm = () => {
      const left = schedule.dueAt - Date.now();
      timers.set(
        key,
        left > MAX_TIMER_MS
          ? setTimeout(arm, MAX_TIMER_MS)
          : setTimeout(() => fire(key, schedule), Math.max(0, left)),
      );
    };
    arm();
    existing.add(key);
    return [200, { ScheduleArn: `arn:aws:scheduler:${region}:000000000000:schedule/${group}/${name}` }];
  };

  const server: Server = createServer((req, res) => {
    const answer = ([status, body, errorType]: [number, unknown, string?]) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
      });
      res.end(JSON.stringify(body));
    };
    const match = /^\/schedules\/([^/?]+)$/.exec(req.url?.split('?')[0] ?? '');
    if (req.method !== 'POST' || !match) {
      return answer([404, { Message: 'Unknown operation' }, 'UnknownOperationException']);
    }
    readBody(req)
      .then((text) => {
        let body: unknown;
        try {
          body = JSON.parse(text || '{}');
        } catch {
          return answer([400, { Message: 'Malformed JSON body' }, 'ValidationException']);
        }
        answer(create(decodeURIComponent(match[1] ?? ''), (body ?? {}) as CreateScheduleBody));
      })
      .catch((error) => {
        options.onError?.(error);
        answer([500, { Message: 'local Scheduler failure' }, 'InternalServerException']);
      });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    created: () => created,
    pending: () => timers.size,
    stop: async () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}
