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
