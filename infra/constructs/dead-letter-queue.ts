import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * A dead-letter queue (of an EventBridge target or an SQS redrive): SQS-managed encryption, TLS only, 14 days of
 * retention (the SQS maximum); `reason` says whose dead letters it holds (cdk-nag SQS3).
 */
export function deadLetterQueue(
  scope: Construct,
  id: string,
  props: { queueName: string; removalPolicy: RemovalPolicy; reason: string },
): Queue {
  const queue = new Queue(scope, id, {
    queueName: props.queueName,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: props.removalPolicy,
  });
  Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: props.reason });
  return queue;
}

/** Receives before a message of a consumed queue moves to its dead-letter queue. */
export const MAX_RECEIVE_COUNT = 3;

/**
 * A queue a Lambda function consumes (`Queue`: SSE, TLS only, 4 days of retention, visibility six
 * times the consumer's timeout as AWS advises for event sources) and its dead-letter queue
 * (`DeadLetterQueue`: redrive after MAX_RECEIVE_COUNT receives), named `<name>` and `<name>-dlq`.
 */
export function consumedQueue(
  scope: Construct,
  props: { queueName: string; consumerTimeoutSeconds: number; removalPolicy: RemovalPolicy; what: string },
): { queue: Queue; deadLetterQueue: Queue } {
  const deadLetters = deadLetterQueue(scope, 'DeadLetterQueue', {
    queueName: `${props.queueName}-dlq`,
    removalPolicy: props.removalPolicy,
    reason: `This is the dead-letter queue of the ${props.what}; its messages are inspected, not redriven further.`,
  });
  const queue = new Queue(scope, 'Queue', {
    queueName: props.queueName,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(props.consumerTimeoutSeconds * 6),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
    removalPolicy: props.removalPolicy,
  });
  return { queue, deadLetterQueue: deadLetters };
}
