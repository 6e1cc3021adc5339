import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  type Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE } from '../../../shared/metric-names';
import { tenantPrefix, tenantResourceName } from '../../naming';
import type { ServiceFunction } from '../service-function';
import { FIVE_MINUTES } from './tenant-alarm';
import type { WatchedResources } from './watched-resources';

/** A metric the service's code publishes (EMF), with the tenant's dimensions. */
export type ServiceMetric = (name: string, statistic?: string, extra?: Record<string, string>) => Metric;

export interface DashboardInput {
  tenant: string;
  stage: Stage;
  /** This construct's alarms and those it adopted, in the status widget's order. */
  alarms: Alarm[];
  watched: WatchedResources;
  metrics: {
    requests: IMetric;
    serverErrors: IMetric;
    throttled: IMetric;
    failures: IMetric;
    serviceMetric: ServiceMetric;
  };
}

/** The tenant's dashboard (`Dashboard` in `scope`): alarms, API, investigations, functions, runs. */
export function addDashboard(scope: Construct, input: DashboardInput): Dashboard {
  const { tenant, stage, metrics } = input;
  const dashboard = new Dashboard(scope, 'Dashboard', {
    dashboardName: tenantPrefix(tenant),
    defaultInterval: Duration.hours(24),
  });
  dashboard.addWidgets(
    new TextWidget({
      markdown: `# Security Investigation Service — ${tenant}\nAlarms notify SNS topic \`${tenantResourceName(tenant, 'alarms')}\`. Runbooks: docs/operations.md.`,
      width: 24,
      height: 2,
    }),
  );
  dashboard.addWidgets(
    new AlarmStatusWidget({ title: 'Alarms', alarms: input.alarms, width: 24, height: 4 }),
  );
  dashboard.addWidgets(...apiWidgets(tenant, stage, metrics));
  dashboard.addWidgets(...investigationWidgets(input.watched, metrics.serviceMetric));
  dashboard.addWidgets(...functionWidgets(input.watched.functions));
  if (input.watched.stateMachines.length) dashboard.addWidgets(runsWidget(input.watched));
  return dashboard;
}

function apiWidgets(tenant: string, stage: Stage, metrics: DashboardInput['metrics']): GraphWidget[] {
  const latency = (statistic: string) =>
    stage.metricLatency({ period: FIVE_MINUTES, statistic, label: `latency ${statistic}` });
  const deniedByReason = new MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},reason,service,tenant} MetricName="${METRIC.apiKeyDenied}" tenant="${tenant}"', 'Sum', 300)`,
    label: '',
    period: FIVE_MINUTES,
  });
  return [
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
  ];
}

function investigationWidgets(watched: WatchedResources, serviceMetric: ServiceMetric): GraphWidget[] {
  return [
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
      left: ['p50', 'p90', 'p99'].map((statistic) => serviceMetric(METRIC.investigationDuration, statistic)),
      width: 8,
    }),
    new GraphWidget({
      title: 'Incident ingest (records)',
      left: [serviceMetric(METRIC.incidentsAccepted), serviceMetric(METRIC.incidentsRejected)],
      right: watched.deadLetterQueues.map((queue) =>
        queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      ),
      rightYAxis: { label: 'dead letters', showUnits: false },
      width: 8,
    }),
  ];
}

function functionWidgets(functions: readonly ServiceFunction[]): GraphWidget[] {
  const perFunction = (title: string, pick: (fn: ServiceFunction) => IMetric) =>
    new GraphWidget({ title, left: functions.map(pick), width: 8, height: 8 });
  return [
    perFunction('Lambda errors', (fn) =>
      fn.function.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: fn.functionName }),
    ),
    perFunction('Lambda duration p90 (ms)', (fn) =>
      fn.function.metricDuration({ period: FIVE_MINUTES, statistic: 'p90', label: fn.functionName }),
    ),
    perFunction('Lambda throttles', (fn) =>
      fn.function.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label: fn.functionName }),
    ),
  ];
}

function runsWidget(watched: WatchedResources): GraphWidget {
  return new GraphWidget({
    title: 'Investigation runs (Step Functions)',
    left: watched.stateMachines.flatMap((sm) => [
      sm.metricStarted({ period: FIVE_MINUTES, statistic: 'Sum' }),
      sm.metricSucceeded({ period: FIVE_MINUTES, statistic: 'Sum' }),
      sm.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
      sm.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' }),
      sm.metricAborted({ period: FIVE_MINUTES, statistic: 'Sum' }),
    ]),
    width: 24,
  });
}
