import type { Stack } from 'aws-cdk-lib';
import { ComparisonOperator, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Construct } from 'constructs';
import { kebabCase, pascalCase } from '../../naming';
import type { AddAlarm } from './tenant-alarm';
import { FIVE_MINUTES } from './tenant-alarm';
import type { WatchedResources } from './watched-resources';

/** The construct path below the stack, e.g. `Workflow/StatusChangeDeadLetters`. */
function pathInStack(construct: Construct): string {
  return construct.node.path.split('/').slice(1).join('/');
}

/**
 * One `dlq-<path>` alarm per queue without a consumer that is not empty; a queue another construct
 * already alarms on keeps that alarm.
 */
export function addDeadLetterAlarms(
  stack: Stack,
  watched: WatchedResources,
  action: SnsAction,
  addAlarm: AddAlarm,
): void {
  const alreadyWatched = new Set(
    watched.adoptedAlarms
      .map((alarm) => alarm.metric)
      .filter((metric): metric is Metric => metric instanceof Metric)
      .filter((metric) => metric.metricName === 'ApproximateNumberOfMessagesVisible')
      .map((metric) => JSON.stringify(stack.resolve(metric.dimensions?.QueueName))),
  );
  for (const queue of watched.deadLetterQueues) {
    if (alreadyWatched.has(JSON.stringify(stack.resolve(queue.queueName)))) continue;
    const where = pathInStack(queue);
    addAlarm(`${pascalCase(where)}NotEmpty`, `dlq-${kebabCase(where)}`, {
      metric: queue.metricApproximateNumberOfMessagesVisible({
        period: FIVE_MINUTES,
        statistic: 'Maximum',
      }),
      threshold: 0,
      description: `Dead-letter queue ${where} holds messages that could not be processed. Inspect them in the SQS console, fix the cause, then redrive (docs/operations.md).`,
      action,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
  }
}
