import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct, type Node } from 'constructs';
import { z } from 'zod';
import { SIEM_FORMATS, type SiemFormat } from '../../shared/domain/siem';
import { tenantResourceName } from '../naming';
import { consumedQueue } from './dead-letter-queue';
import { addSchedulerRole } from './scheduler-role';
import { ServiceFunction, type ServiceFunctionDefaults } from './service-function';

export const INCIDENT_CONSUMER_FUNCTION = 'incident-sync-consumer';
export const SIEM_PULL_FUNCTION = 'siem-pull';
export { MAX_RECEIVE_COUNT } from './dead-letter-queue';

const CONSUMER_TIMEOUT_SECONDS = 60;
const PULL_TIMEOUT_SECONDS = 300;

/** One pull connector as deployed: where the SIEM is and which secret holds its credentials. */
export interface SiemConnectorDeployment {
  format: SiemFormat;
  url: string;
  secretArn: string;
  /** Splunk Web base URL, for links back to Incident Review. */
  webUrl?: string;
}

export interface IncidentSyncProps {
  defaults: ServiceFunctionDefaults;
  tenant: string;
  removalPolicy: RemovalPolicy;
  /** Configured connectors get an enabled schedule; the others a disabled one, ready to switch on. */
  connectors?: readonly SiemConnectorDeployment[];
  pullIntervalMinutes?: number;
}

const FORMAT_ENV: Record<SiemFormat, { url: string; secret: string }> = {
  sentinel: { url: 'SIS_SIEM_SENTINEL_URL', secret: 'SIS_SIEM_SENTINEL_SECRET_ARN' },
  splunk: { url: 'SIS_SIEM_SPLUNK_URL', secret: 'SIS_SIEM_SPLUNK_SECRET_ARN' },
  elastic: { url: 'SIS_SIEM_ELASTIC_URL', secret: 'SIS_SIEM_ELASTIC_SECRET_ARN' },
};

const secretArn = z
  .string()
  .regex(
    /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/,
    'must be a full Secrets Manager secret ARN',
  );
const httpsUrl = z.url().refine((u) => u.startsWith('https://'), 'must be an https URL');

const connectorContext = z
  .object({
    siemSentinelUrl: httpsUrl.optional(),
    siemSentinelSecretArn: secretArn.optional(),
    siemSplunkUrl: httpsUrl.optional(),
    siemSplunkWebUrl: httpsUrl.optional(),
    siemSplunkSecretArn: secretArn.optional(),
    siemElasticUrl: httpsUrl.optional(),
    siemElasticSecretArn: secretArn.optional(),
    siemPullIntervalMinutes: z.coerce.number().int().min(1).max(1440).default(5),
  })
  .superRefine((value, ctx) => {
    for (const format of SIEM_FORMATS) {
      const name = format.charAt(0).toUpperCase() + format.slice(1);
      const url = value[`siem${name}Url` as keyof typeof value];
      const secret = value[`siem${name}SecretArn` as keyof typeof value];
      if ((url === undefined) !== (secret === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [`siem${name}${url === undefined ? 'Url' : 'SecretArn'}`],
          message: `is required when siem${name}${url === undefined ? 'SecretArn' : 'Url'} is set`,
        });
      }
    }
  });

/**
 * The pull connectors from CDK context (`-c siemSplunkUrl=https://… -c siemSplunkSecretArn=arn:…`).
 * The secret holds the credentials JSON described in docs; nothing secret is ever in context.
 */
export function siemConnectorsFromContext(node: Node): {
  connectors: SiemConnectorDeployment[];
  pullIntervalMinutes: number;
} {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(connectorContext.shape)) {
    const value = node.tryGetContext(key);
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = connectorContext.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `context '${issue.path.join('.')}' ${issue.message}`);
    throw new Error(`Invalid SIEM connector settings: ${problems.join('; ')}`);
  }
  const c = result.data;
  const connectors: SiemConnectorDeployment[] = [];
  if (c.siemSentinelUrl && c.siemSentinelSecretArn) {
    connectors.push({ format: 'sentinel', url: c.siemSentinelUrl, secretArn: c.siemSentinelSecretArn });
  }
  if (c.siemSplunkUrl && c.siemSplunkSecretArn) {
    connectors.push({
      format: 'splunk',
      url: c.siemSplunkUrl,
      secretArn: c.siemSplunkSecretArn,
      ...(c.siemSplunkWebUrl ? { webUrl: c.siemSplunkWebUrl } : {}),
    });
  }
  if (c.siemElasticUrl && c.siemElasticSecretArn) {
    connectors.push({ format: 'elastic', url: c.siemElasticUrl, secretArn: c.siemElasticSecretArn });
  }
  return { connectors, pullIntervalMinutes: c.siemPullIntervalMinutes };
}

/** The pull function's SIS_SIEM_* variables, and the URLs alone (no secrets) for the push endpoint. */
function connectorEnvironment(connectors: readonly SiemConnectorDeployment[]): {
  environment: Record<string, string>;
  pulledSourceUrls: Record<string, string>;
} {
  const environment: Record<string, string> = {};
  const pulledSourceUrls: Record<string, string> = {};
  for (const connector of connectors) {
    environment[FORMAT_ENV[connector.format].url] = connector.url;
    pulledSourceUrls[FORMAT_ENV[connector.format].url] = connector.url;
    environment[FORMAT_ENV[connector.format].secret] = connector.secretArn;
    if (connector.webUrl) environment.SIS_SIEM_SPLUNK_WEB_URL = connector.webUrl;
  }
  return { environment, pulledSourceUrls };
}

/**
 * SIEM incident sync on AWS: the incident queue (SSE, TLS only) with its dead-letter queue
 * (redrive after MAX_RECEIVE_COUNT deliveries, 14 days retention; the stack's Observability alarms
 * on every dead-letter queue as soon as anything lands there), the consumer function fed by an SQS event source that reports partial batch failures, and
 * the pull function with one EventBridge Scheduler schedule per SIEM, enabled only for configured
 * connectors.
 *
 * Table grants and SIS_* variables come from FUNCTION_GRANTS like every other function; this
 * construct adds only what is its own: consuming the queue (the event source) and reading exactly
 * the configured connectors' secrets.
 */
export class IncidentSync extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly consumer: ServiceFunction;
  readonly pull: ServiceFunction;
  readonly schedules = new Map<SiemFormat, Schedule>();
  /**
   * The configured SIEMs' URLs (no secrets): the push endpoint learns from them which sources this
   * deployment pulls, and refuses pushes of those sources.
   */
  readonly pulledSourceUrls: Record<string, string>;

  constructor(scope: Construct, id: string, props: IncidentSyncProps) {
    super(scope, id);
    const { defaults } = props;
    const connectors = props.connectors ?? [];
    const queues = consumedQueue(this, {
      queueName: tenantResourceName(props.tenant, 'incidents'),
      consumerTimeoutSeconds: CONSUMER_TIMEOUT_SECONDS,
      removalPolicy: props.removalPolicy,
      what: 'incident queue',
    });
    this.queue = queues.queue;
    this.deadLetterQueue = queues.deadLetterQueue;

    this.consumer = new ServiceFunction(this, 'Consumer', {
      defaults,
      name: INCIDENT_CONSUMER_FUNCTION,
      timeoutSeconds: CONSUMER_TIMEOUT_SECONDS,
    });
    this.consumer.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(2),
        reportBatchItemFailures: true,
        // Bounded so a SIEM backfill does not turn into a write storm on one hot graph partition.
        maxConcurrency: 5,
      }),
    );

    const { environment, pulledSourceUrls } = connectorEnvironment(connectors);
    this.pulledSourceUrls = pulledSourceUrls;
    this.pull = new ServiceFunction(this, 'Pull', {
      defaults,
      name: SIEM_PULL_FUNCTION,
      timeoutSeconds: PULL_TIMEOUT_SECONDS,
      environment,
    });
    if (connectors.length > 0) {
      this.pull.addToPolicy(
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: connectors.map((c) => c.secretArn),
        }),
      );
    }
    this.addPullSchedules(props.tenant, connectors, props.pullIntervalMinutes ?? 5);
  }

  /** One schedule per SIEM, enabled only for a configured connector. */
  private addPullSchedules(
    tenant: string,
    connectors: readonly SiemConnectorDeployment[],
    every: number,
  ): void {
    const schedulerRole = addSchedulerRole(this, this.pull, 'the pull function');
    for (const format of SIEM_FORMATS) {
      const configured = connectors.some((c) => c.format === format);
      this.schedules.set(
        format,
        new Schedule(this, `${format.charAt(0).toUpperCase()}${format.slice(1)}Schedule`, {
          scheduleName: tenantResourceName(tenant, 'siem-pull', format),
          description: `Pulls ${format} incidents every ${every} minutes${configured ? '' : ' (disabled: connector not configured)'}`,
          schedule: ScheduleExpression.rate(Duration.minutes(every)),
          enabled: configured,
          target: new LambdaInvoke(this.pull.function, {
            role: schedulerRole,
            input: ScheduleTargetInput.fromObject({ connector: format }),
            retryAttempts: 2,
            maxEventAge: Duration.minutes(every),
          }),
        }),
      );
    }
  }

  /** The construct's functions by name, for the stack's grant loop. */
  get functions(): [string, ServiceFunction][] {
    return [
      [INCIDENT_CONSUMER_FUNCTION, this.consumer],
      [SIEM_PULL_FUNCTION, this.pull],
    ];
  }
}
