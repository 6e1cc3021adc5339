import type { Stack } from 'aws-cdk-lib';
import { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { CfnEventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { ServiceFunction } from '../service-function';

/** What the construct found in the stack and watches; tests and the idle-cost script read it. */
export interface WatchedResources {
  functions: ServiceFunction[];
  stateMachines: StateMachine[];
  /** Queues nothing consumes: dead-letter queues (SQS redrive, EventBridge or Lambda DLQs). */
  deadLetterQueues: Queue[];
  /** Alarms other constructs made; they get this construct's SNS actions. */
  adoptedAlarms: Alarm[];
}

/** Every ServiceFunction, state machine and consumer-less queue in the stack. */
export function findWatchedResources(stack: Stack): WatchedResources {
  const all = stack.node.findAll();
  const consumedQueueArns = new Set(
    all
      .filter((c): c is CfnEventSourceMapping => c instanceof CfnEventSourceMapping)
      .map((mapping) => JSON.stringify(stack.resolve(mapping.eventSourceArn))),
  );
  return {
    functions: all.filter((c): c is ServiceFunction => c instanceof ServiceFunction),
    stateMachines: all.filter((c): c is StateMachine => c instanceof StateMachine),
    deadLetterQueues: all
      .filter((c): c is Queue => c instanceof Queue)
      .filter((queue) => !consumedQueueArns.has(JSON.stringify(stack.resolve(queue.queueArn)))),
    adoptedAlarms: all.filter((c): c is Alarm => c instanceof Alarm),
  };
}
