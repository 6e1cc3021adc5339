import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tenantResourceName } from '../naming';
import { consumedQueue } from './dead-letter-queue';
import { ServiceFunction, type ServiceFunctionDefaults } from './service-function';

export const DELIVER_WEBHOOK_FUNCTION = 'deliver-webhook';
/**
 * One batch of attempts side by side, each at most SIS_WEBHOOK_TIMEOUT_SECONDS (≤ 15 s) of HTTP plus
 * its DynamoDB claim and record: a minute leaves room without holding a hung batch long.
 */
const DELIVERY_TIMEOUT_SECONDS = 60;

export interface WebhookDeliveryProps {
  defaults: ServiceFunctionDefaults;
  tenant: string;
  removalPolicy: RemovalPolicy;
}

/**
 * Webhook delivery on AWS (docs/soar.md "Webhooks"): the delivery queue (SSE, TLS only; retries are
 * new messages with DelaySeconds, chained past SQS's 900 s), its dead-letter queue (redrive after
 * MAX_RECEIVE_COUNT receives of a message that keeps failing or whose attempts are spent; the stack's
 * Observability alarms on it as on every dead-letter queue), and the delivery function fed by an SQS
 * event source that reports partial batch failures, as the incident consumer is.
 *
 * Grants and SIS_* variables come from FUNCTION_GRANTS like every other function's.
 */
export class WebhookDelivery extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deliver: ServiceFunction;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = consumedQueue(this, {
      queueName: tenantResourceName(props.tenant, 'webhooks'),
      consumerTimeoutSeconds: DELIVERY_TIMEOUT_SECONDS,
      removalPolicy: props.removalPolicy,
      what: 'webhook queue',
    }));
    this.deliver = new ServiceFunction(this, 'Deliver', {
      defaults: props.defaults,
      name: DELIVER_WEBHOOK_FUNCTION,
      timeoutSeconds: DELIVERY_TIMEOUT_SECONDS,
    });
    this.deliver.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        // Bounded: a burst of ended sessions does not become a burst of concurrent functions.
        maxConcurrency: 5,
      }),
    );
  }

  /** The construct's functions by name, for the stack's grant loop. */
  get functions(): [string, ServiceFunction][] {
    return [[DELIVER_WEBHOOK_FUNCTION, this.deliver]];
  }
}
