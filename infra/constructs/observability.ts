import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  type Alarm,
  ComparisonOperator,
  type Dashboard,
  type IMetric,
  Metric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE, tenantDimensions } from '../../shared/metric-names';
import { addAlarmTopic } from './observability/alarm-topic';
import { addDashboard, type ServiceMetric } from './observability/dashboard';
import { addDeadLetterAlarms } from './observability/dead-letter-alarms';
import { addFailureMetric, failuresAlarmDescription } from './observability/failure-metric';
import { FIVE_MINUTES, type TenantAlarmOptions, tenantAlarm } from './observability/tenant-alarm';
import { findWatchedResources, type WatchedResources } from './observability/watched-resources';
import type { ServiceFunction } from './service-function';

export {
  FAILURE_METRIC,
  FAILURE_PATTERNS,
  failureMetricNamespace,
  isAuthorizer,
} from './observability/failure-metric';
export { findWatchedResources, type WatchedResources } from './observability/watched-resources';

/** Thresholds, named so docs/operations.md can quote them. */
export const ALARM_THRESHOLDS = {
  /** Failures (5xx answers, function crashes/timeouts/out-of-memory) in 5 minutes. */
  failures: 1,
  /** 429 answers in 5 minutes (a client hitting its usage-plan limits). */
  throttled: 100,
} as const;

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
 * test/infra/stack/observability.test.ts fails if something escapes.
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
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.tenant = props.tenant;
    const stack = Stack.of(this);
    this.watched = findWatchedResources(stack);
    this.topic = addAlarmTopic(this, props.tenant, props.alarmEmail);
    this.action = new SnsAction(this.topic);
    const dims = tenantDimensions(props.tenant);
    const serviceMetric: ServiceMetric = (metricName, statistic = 'Sum', extra = {}) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { ...dims, ...extra },
        statistic,
        period: FIVE_MINUTES,
      });

    // --- Failures: every function's failed invocations and every 5xx answer, one metric ---
    const failures = addFailureMetric(this, props, this.watched.functions);
    this.addAlarm('Failures', 'failures', {
      metric: failures,
      threshold: ALARM_THRESHOLDS.failures,
      description: failuresAlarmDescription(props.tenant, ALARM_THRESHOLDS.failures),
      action: this.action,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    const throttled = this.addThrottledAlarm(props);
    if (props.bedrockMonthlyTokenBudget)
      this.addBedrockBudgetAlarm(props.bedrockMonthlyTokenBudget, serviceMetric);

    // --- Alarms other constructs brought: notify through the same topic ---
    for (const alarm of this.watched.adoptedAlarms) {
      alarm.addAlarmAction(this.action);
      alarm.addOkAction(this.action);
    }
    addDeadLetterAlarms(stack, this.watched, this.action, (alarmId, suffix, options) =>
      this.addAlarm(alarmId, suffix, options),
    );

    this.dashboard =
      props.dashboard === false
        ? undefined
        : addDashboard(this, {
            tenant: props.tenant,
            stage: props.stage,
            alarms: [...this.alarms, ...this.watched.adoptedAlarms],
            watched: this.watched,
            metrics: {
              requests: props.stage.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
              serverErrors: props.stage.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
              throttled,
              failures,
              serviceMetric,
            },
          });
  }

  /** API: clients hitting their limits, counted from the access log's 429 answers per API. */
  private addThrottledAlarm(props: ObservabilityProps): IMetric {
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
      action: this.action,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    return throttled;
  }

  private addBedrockBudgetAlarm(budget: number, serviceMetric: ServiceMetric): void {
    this.addAlarm('BedrockBudget', 'bedrock-budget-80', {
      metric: serviceMetric(METRIC.bedrockMonthlyBudgetUsedPercent, 'Maximum'),
      threshold: BEDROCK_BUDGET_ALARM_PERCENT,
      description: `The analyst used ${BEDROCK_BUDGET_ALARM_PERCENT} % or more of this month's Bedrock token budget (${budget} tokens, setting bedrockMonthlyTokenBudget). Past 100 % investigations get the rules narrative until the month ends.`,
      action: this.action,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }

  private addAlarm(id: string, suffix: string, options: TenantAlarmOptions): Alarm {
    const alarm = tenantAlarm(this, this.tenant, id, suffix, options);
    this.alarms.push(alarm);
    return alarm;
  }
}
