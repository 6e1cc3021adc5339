import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnEventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ALARMED_FAILURE, METRIC, METRICS_NAMESPACE, tenantDimensions } from '../../shared/metric-names';
import { ServiceFunction } from './service-function';

const FIVE_MINUTES = Duration.minutes(5);

/** Thresholds, named so docs/operations.md can quote them. */
export const ALARM_THRESHOLDS = {
  /** Failures (5xx answers, function crashes/timeouts/out-of-memory) in 5 minutes. */
  failures: 1,
  /** 429 answers in 5 minutes (a client hitting its usage-plan limits). */
  throttled: 100,
} as const;

/**
 * What counts as a failure, as CloudWatch Logs filter patterns (free; their metric bills only in
 * hours it receives data, so nothing at idle):
 * - a function invocation that did not succeed: Lambda's own JSON platform records (`runtimeDone`,
 *   `report`) carry the invocation's status, the same events its `Errors` metric counts (Lambda
 *   gives them level WARN when the status is not success, so the functions' system log level WARN,
 *   infra/telemetry.ts, drops only successful invocations' records);
 * - a failure the code handled but must still report (ALARMED_FAILURE, shared/metric-names.ts): an
 *   investigation run that failed or timed out, logged by the step that recorded it, the
 *   status-change function and the stale-session sweeper;
 * - a 5xx answer in the stage's access log, which is also how a failing authorizer shows (API Gateway
 *   answers AUTHORIZER_FAILURE and AUTHORIZER_CONFIGURATION_ERROR with a 5xx), without counting
 *   the refused keys the authorizer reports as Lambda errors.
 */
const ALARMED = `$.${ALARMED_FAILURE.field} = "${ALARMED_FAILURE.value}"`;
export const FAILURE_PATTERNS = {
  invocation: `{ $.record.status = "error" || $.record.status = "failure" || $.record.status = "timeout" || ${ALARMED} }`,
  /**
   * An authorizer answers every refused credential by throwing `Unauthorized` (status "error"), so
   * its filter counts only runtime failures and timeouts; its other errors reach clients as 5xx.
   */
  authorizerInvocation: `{ $.record.status = "failure" || $.record.status = "timeout" || ${ALARMED} }`,
  answer: '{ $.status = "5*" }',
} as const;

/** The tenant's failure count, fed by the metric filters (its own namespace: one tenant per metric). */
export function failureMetricNamespace(tenant: string): string {
  return `${METRICS_NAMESPACE}/${tenant}`;
}
export const FAILURE_METRIC = 'Failures';

export interface ObservabilityProps {
  tenant: string;
  alarmEmail?: string;
  restApiId: string;
  stage: Stage;
  accessLogs: ILogGroup;
  authorizerFunction: ServiceFunction;
  /** The tenant's CloudWatch dashboard ($3/month beyond an account's first three); default on. */
  dashboard?: boolean;
  /** The tenant's monthly Bedrock token budget, when set: an alarm at 80 % of it. */
  bedrockMonthlyTokenBudget?: number;
}

/** The share of the monthly Bedrock token budget at which the budget alarm fires. */
export const BEDROCK_BUDGET_ALARM_PERCENT = 80;

/** What the construct found in the stack and watches; tests and the idle-cost script read it. */
export interface WatchedResources {
  functions: ServiceFunction[];
  stateMachines: StateMachine[];
  /** Queues nothing consumes: dead-letter queues (SQS redrive, EventBridge or Lambda DLQs). */
  deadLetterQueues: Queue[];
  /** Alarms other constructs made; they get this construct's SNS actions. */
  adoptedAlarms: Alarm[];
}

/**
 * Alarms, their SNS topic and (optionally) one dashboard for a tenant. Alarms are derived from what
 * the stack holds when this construct is built (so it is built last), and folded into a few
 * tenant-level alarms, because CloudWatch bills every alarm metric every month whether it fires or
 * not (one alarm per function was most of an idle tenant's bill):
 *
 * - `failures`: one metric fed by a metric filter on every ServiceFunction's log group (invocations
 *   that crashed, timed out or ran out of memory, and handled failures logged with ALARMED_FAILURE)
 *   and one on the access log (every 5xx answer, including the authorizer failing); the alarm's
 *   description says where to look. Failed and timed-out investigation runs are counted there too:
 *   the step that records a caught failure logs it, and every FAILED or TIMED_OUT execution reaches
 *   the status-change function through an EventBridge rule (retries, then a dead-letter queue that
 *   is alarmed below), which logs it before anything else; a status change that never arrives
 *   leaves the session open, and the stale-session sweeper logs the failed run when it ends it.
 *   (A metric-math alarm on the state machines' ExecutionsFailed + ExecutionsTimedOut cost $0.20 a
 *   month per tenant for the same signal.)
 * - `dlq-*`: every queue without a consumer, not empty;
 * - `api-throttled`: 429 answers from the access log.
 *
 * A resource added later by anyone is therefore watched without touching this file, and
 * test/infra/observability.test.ts fails if something escapes.
 *
 * An authorizer throws `Unauthorized` for every refused credential, which Lambda counts as an error,
 * so its filter counts only crashes and timeouts: its other failures reach clients as 5xx answers
 * (gateway responses AUTHORIZER_FAILURE / AUTHORIZER_CONFIGURATION_ERROR), which the access-log
 * filter counts.
 */
export class Observability extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard | undefined;
  readonly watched: WatchedResources;
  private readonly tenant: string;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.tenant = props.tenant;
    const stack = Stack.of(this);
    this.watched = findWatchedResources(stack);

    this.topic = new Topic(this, 'AlarmTopic', {
      topicName: `sis-${props.tenant}-alarms`,
      displayName: `Security Investigation Service alarms (${props.tenant})`,
      enforceSSL: true,
    });
    // The topic policy CDK writes for enforceSSL replaces SNS's default policy; allow exactly this
    // tenant's alarms to publish.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowTenantAlarms',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: `sis-${props.tenant}-*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
          StringEquals: { 'aws:SourceAccount': stack.account },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key, and a customer-managed key costs $1/month per tenant at idle; alarm notifications carry alarm names and thresholds only, no tenant data.',
    });

    const action = new SnsAction(this.topic);
    const dims = tenantDimensions(props.tenant);
    const serviceMetric = (metricName: string, statistic = 'Sum', extra: Record<string, string> = {}) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { ...dims, ...extra },
        statistic,
        period: FIVE_MINUTES,
      });

    // --- Failures: every function's failed invocations and every 5xx answer, one metric ---
    const failureNamespace = failureMetricNamespace(props.tenant);
    const failureFilter = (id: string, logGroup: ILogGroup, pattern: string) =>
      new MetricFilter(this, id, {
        logGroup,
        filterPattern: FilterPattern.literal(pattern),
        metricNamespace: failureNamespace,
        metricName: FAILURE_METRIC,
        metricValue: '1',
      });
    failureFilter('FailedAnswersFilter', props.accessLogs, FAILURE_PATTERNS.answer);
    // Functions sharing a log group share its one filter (ServiceFunctionDefaults.sharedLogGroup).
    const filtered = new Set<ILogGroup>();
    for (const fn of this.watched.functions) {
      if (filtered.has(fn.logGroup)) continue;
      filtered.add(fn.logGroup);
      const name = shortName(fn.functionName, props.tenant);
      const shared = this.watched.functions.filter((other) => other.logGroup === fn.logGroup).length > 1;
      failureFilter(
        shared ? 'FunctionsFailuresFilter' : `${pascal(name)}FailuresFilter`,
        fn.logGroup,
        isAuthorizer(fn, name, props) ? FAILURE_PATTERNS.authorizerInvocation : FAILURE_PATTERNS.invocation,
      );
    }
    const failures = new Metric({
      namespace: failureNamespace,
      metricName: FAILURE_METRIC,
      statistic: 'Sum',
      period: FIVE_MINUTES,
      label: 'failures (5xx answers, failed invocations)',
    });
    this.addAlarm('Failures', 'failures', {
      metric: failures,
      threshold: ALARM_THRESHOLDS.failures,
      description: `At least ${ALARM_THRESHOLDS.failures} failure in 5 minutes: an API answer with status 5xx (the access log's status/errorType/integrationError say which route, or that the authorizer failed), a function invocation that crashed, timed out or ran out of memory, or an investigation run that failed or timed out (CloudWatch Logs Insights over /aws/lambda/sis-${props.tenant}-*: filter record.status in ["error","failure","timeout"] or ${ALARMED_FAILURE.field} = "${ALARMED_FAILURE.value}"). Runbook: docs/operations.md.`,
      action,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });

    // --- API: clients hitting their limits ---
    const requests = props.stage.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.stage.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const throttledFilter = new MetricFilter(this, 'ThrottledRequestsFilter', {
      logGroup: props.accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: METRICS_NAMESPACE,
      metricName: METRIC.throttledRequests,
      metricValue: '1',
      dimensions: { ApiId: '$.apiId' },
    });
    const throttled = throttledFilter.metric({
      dimensionsMap: { ApiId: props.restApiId },
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
    this.addAlarm('ApiThrottled', 'api-throttled', {
      metric: throttled,
      threshold: ALARM_THRESHOLDS.throttled,
      description: `At least ${ALARM_THRESHOLDS.throttled} requests answered 429 (usage-plan rate or quota) in 5 minutes: a client is looping, or a key's limits are too low. The access logs' keyId field names the key.`,
      action,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });

    if (props.bedrockMonthlyTokenBudget) {
      this.addAlarm('BedrockBudget', 'bedrock-budget-80', {
        metric: serviceMetric(METRIC.bedrockMonthlyBudgetUsedPercent, 'Maximum'),
        threshold: BEDROCK_BUDGET_ALARM_PERCENT,
        description: `The analyst used ${BEDROCK_BUDGET_ALARM_PERCENT} % or more of this month's Bedrock token budget (${props.bedrockMonthlyTokenBudget} tokens, setting bedrockMonthlyTokenBudget). Past 100 % investigations get the rules narrative until the month ends.`,
        action,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
    }

    // --- Alarms other constructs brought: notify through the same topic ---
    for (const alarm of this.watched.adoptedAlarms) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }

    // --- Dead letters (a queue another construct already alarms on keeps that alarm) ---
    const alreadyWatched = new Set(
      this.watched.adoptedAlarms
        .map((alarm) => alarm.metric)
        .filter((metric): metric is Metric => metric instanceof Metric)
        .filter((metric) => metric.metricName === 'ApproximateNumberOfMessagesVisible')
        .map((metric) => JSON.stringify(stack.resolve(metric.dimensions?.QueueName))),
    );
    for (const queue of this.watched.deadLetterQueues) {
      if (alreadyWatched.has(JSON.stringify(stack.resolve(queue.queueName)))) continue;
      const where = pathInStack(queue);
      this.addAlarm(`${pascal(where)}NotEmpty`, `dlq-${kebab(where)}`, {
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

    this.dashboard =
      props.dashboard === false
        ? undefined
        : this.buildDashboard(props, { requests, serverErrors, throttled, failures, serviceMetric });
  }

  private addAlarm(
    id: string,
    suffix: string,
    options: {
      metric: IMetric;
      threshold: number;
      description: string;
      action: SnsAction;
      comparison?: ComparisonOperator;
    },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      alarmName: `sis-${this.tenant}-${suffix}`.slice(0, 255),
      alarmDescription: options.description,
      metric: options.metric,
      threshold: options.threshold,
      comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(options.action);
    alarm.addOkAction(options.action);
    this.alarms.push(alarm);
    return alarm;
  }

  private buildDashboard(
    props: ObservabilityProps,
    metrics: {
      requests: IMetric;
      serverErrors: IMetric;
      throttled: IMetric;
      failures: IMetric;
      serviceMetric: (name: string, statistic?: string, extra?: Record<string, string>) => Metric;
    },
  ): Dashboard {
    const { serviceMetric } = metrics;
    const stage = props.stage;
    const latency = (statistic: string) =>
      stage.metricLatency({ period: FIVE_MINUTES, statistic, label: `latency ${statistic}` });
    const functions = this.watched.functions;
    const perFunction = (pick: (fn: ServiceFunction) => IMetric) => functions.map(pick);
    const deniedByReason = new MathExpression({
      expression: `SEARCH('{${METRICS_NAMESPACE},reason,service,tenant} MetricName="${METRIC.apiKeyDenied}" tenant="${props.tenant}"', 'Sum', 300)`,
      label: '',
      period: FIVE_MINUTES,
    });

    const dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `sis-${props.tenant}`,
      defaultInterval: Duration.hours(24),
    });
    dashboard.addWidgets(
      new TextWidget({
        markdown: `# Security Investigation Service — ${props.tenant}\nAlarms notify SNS topic \`sis-${props.tenant}-alarms\`. Runbooks: docs/operations.md.`,
        width: 24,
        height: 2,
      }),
    );
    dashboard.addWidgets(
      new AlarmStatusWidget({
        title: 'Alarms',
        alarms: [...this.alarms, ...this.watched.adoptedAlarms],
        width: 24,
        height: 4,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [
          metrics.requests,
          stage.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' }),
          metrics.serverErrors,
        ],
        right: [metrics.throttled, metrics.failures],
        width: 8,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: [latency('p50'), latency('p90'), latency('p99')],
        width: 8,
      }),
      new GraphWidget({ title: 'Refused API keys by reason', left: [deniedByReason], width: 8 }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Investigations',
        left: [
          serviceMetric(METRIC.investigationsStarted),
          serviceMetric(METRIC.investigationsCompleted),
          serviceMetric(METRIC.investigationsFailed),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'Investigation duration (ms)',
        left: ['p50', 'p90', 'p99'].map((statistic) =>
          serviceMetric(METRIC.investigationDuration, statistic),
        ),
        width: 8,
      }),
      new GraphWidget({
        title: 'Incident ingest (records)',
        left: [serviceMetric(METRIC.incidentsAccepted), serviceMetric(METRIC.incidentsRejected)],
        right: this.watched.deadLetterQueues.map((queue) =>
          queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        ),
        rightYAxis: { label: 'dead letters', showUnits: false },
        width: 8,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Lambda errors',
        left: perFunction((fn) =>
          fn.function.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: fn.functionName }),
        ),
        width: 8,
        height: 8,
      }),
      new GraphWidget({
        title: 'Lambda duration p90 (ms)',
        left: perFunction((fn) =>
          fn.function.metricDuration({ period: FIVE_MINUTES, statistic: 'p90', label: fn.functionName }),
        ),
        width: 8,
        height: 8,
      }),
      new GraphWidget({
        title: 'Lambda throttles',
        left: perFunction((fn) =>
          fn.function.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label: fn.functionName }),
        ),
        width: 8,
        height: 8,
      }),
    );
    if (this.watched.stateMachines.length) {
      dashboard.addWidgets(
        new GraphWidget({
          title: 'Investigation runs (Step Functions)',
          left: this.watched.stateMachines.flatMap((sm) => [
            sm.metricStarted({ period: FIVE_MINUTES, statistic: 'Sum' }),
            sm.metricSucceeded({ period: FIVE_MINUTES, statistic: 'Sum' }),
            sm.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
            sm.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' }),
            sm.metricAborted({ period: FIVE_MINUTES, statistic: 'Sum' }),
          ]),
          width: 24,
        }),
      );
    }
    return dashboard;
  }
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

/** The API key authorizer, and any other REQUEST authorizer (by convention `functions/*authorizer`). */
export function isAuthorizer(
  fn: ServiceFunction,
  name: string,
  props: { authorizerFunction: ServiceFunction },
) {
  return fn === props.authorizerFunction || name.endsWith('authorizer');
}

function shortName(functionName: string, tenant: string): string {
  return functionName.replace(`sis-${tenant}-`, '');
}

/** The construct path below the stack, e.g. `Workflow/StatusChangeDeadLetters`. */
function pathInStack(construct: Construct): string {
  return construct.node.path.split('/').slice(1).join('/');
}

function pascal(text: string): string {
  return text
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function kebab(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .toLowerCase();
}
