import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { tenantResourceName } from '../../naming';
import {
  STALE_SESSION_SWEEP_FUNCTION,
  STALE_SESSION_SWEEP_MINUTES,
  STATUS_CHANGE_FUNCTION,
  WRITE_BACK_STATUSES,
  workflowTimeoutSeconds,
} from '../../workflow/definition';
import { deadLetterQueue } from '../dead-letter-queue';
import { ServiceFunction, type ServiceFunctionDefaults } from '../service-function';

export interface EndedRunsProps {
  defaults: ServiceFunctionDefaults;
  tenant: string;
  removalPolicy: RemovalPolicy;
}

/** A function behind an EventBridge rule, and the dead-letter queue of the rule's target. */
export interface RuleTarget {
  fn: ServiceFunction;
  rule: Rule;
  deadLetterQueue: Queue;
}

/**
 * The rule sending the Standard state machine's FAILED, TIMED_OUT and ABORTED executions to the
 * status-change function (`StatusChange`, `StatusChangeDeadLetters`, `EndedExecutions` in `scope`).
 */
export function addStatusChange(
  scope: Construct,
  props: EndedRunsProps,
  stateMachine: IStateMachine,
): RuleTarget {
  const fn = new ServiceFunction(scope, 'StatusChange', {
    defaults: props.defaults,
    name: STATUS_CHANGE_FUNCTION,
    timeoutSeconds: 30,
  });
  const queue = deadLetterQueue(scope, 'StatusChangeDeadLetters', {
    queueName: tenantResourceName(props.tenant, 'workflow-status-change-dlq'),
    removalPolicy: props.removalPolicy,
    reason: 'This queue is itself the dead-letter queue of the status-change rule target.',
  });
  const rule = new Rule(scope, 'EndedExecutions', {
    description: `Writes failed, timed-out and aborted investigation runs of tenant ${props.tenant} back to their sessions`,
    eventPattern: {
      source: ['aws.states'],
      detailType: ['Step Functions Execution Status Change'],
      detail: {
        status: [...WRITE_BACK_STATUSES],
        stateMachineArn: [stateMachine.stateMachineArn],
      },
    },
    targets: [
      new LambdaFunction(fn.function, {
        deadLetterQueue: queue,
        maxEventAge: Duration.hours(6),
        retryAttempts: 20,
      }),
    ],
  });
  return { fn, rule, deadLetterQueue: queue };
}

/**
 * The scheduled sweeper ending sessions whose run never started or never reported back
 * (`StaleSessionSweep`, `StaleSessionSweepDeadLetters`, `StaleSessionSweepSchedule` in `scope`).
 */
export function addStaleSessionSweep(scope: Construct, props: EndedRunsProps): RuleTarget {
  const fn = new ServiceFunction(scope, 'StaleSessionSweep', {
    defaults: props.defaults,
    name: STALE_SESSION_SWEEP_FUNCTION,
    timeoutSeconds: 120,
    // The sweeper's run limit is this definition's own timeout plus a margin.
    environment: { SIS_WORKFLOW_TIMEOUT_SECONDS: String(workflowTimeoutSeconds()) },
  });
  const queue = deadLetterQueue(scope, 'StaleSessionSweepDeadLetters', {
    queueName: tenantResourceName(props.tenant, 'stale-session-sweep-dlq'),
    removalPolicy: props.removalPolicy,
    reason: 'This queue is itself the dead-letter queue of the stale-session sweep schedule.',
  });
  const rule = new Rule(scope, 'StaleSessionSweepSchedule', {
    description: `Ends investigation sessions of tenant ${props.tenant} whose run never started or never reported back`,
    schedule: Schedule.rate(Duration.minutes(STALE_SESSION_SWEEP_MINUTES)),
    targets: [
      // A trigger older than one interval is superseded by the next; nothing needs redriving, but a
      // message in the dead-letter queue (alarmed like every DLQ) says the sweeper could not run.
      new LambdaFunction(fn.function, {
        deadLetterQueue: queue,
        maxEventAge: Duration.minutes(STALE_SESSION_SWEEP_MINUTES),
        retryAttempts: 2,
      }),
    ],
  });
  return { fn, rule, deadLetterQueue: queue };
}
