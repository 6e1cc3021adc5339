import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ALARMED_FAILURE, METRICS_NAMESPACE } from '../../../shared/metric-names';
import { pascalCase, tenantResourceName, withoutTenantPrefix } from '../../naming';
import type { ServiceFunction } from '../service-function';
import { FIVE_MINUTES } from './tenant-alarm';

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

/** The API key authorizer, and any other REQUEST authorizer (by convention `functions/*authorizer`). */
export function isAuthorizer(
  fn: ServiceFunction,
  name: string,
  props: { authorizerFunction: ServiceFunction },
) {
  return fn === props.authorizerFunction || name.endsWith('authorizer');
}

export interface FailureSources {
  tenant: string;
  accessLogs: ILogGroup;
  authorizerFunction: ServiceFunction;
}

/**
 * The tenant's one failure metric: a metric filter on the access log (5xx answers) and one on each
 * function log group (failed invocations; functions sharing a log group share its one filter).
 */
export function addFailureMetric(
  scope: Construct,
  sources: FailureSources,
  functions: readonly ServiceFunction[],
): Metric {
  const { tenant } = sources;
  const namespace = failureMetricNamespace(tenant);
  const failureFilter = (id: string, logGroup: ILogGroup, pattern: string) =>
    new MetricFilter(scope, id, {
      logGroup,
      filterPattern: FilterPattern.literal(pattern),
      metricNamespace: namespace,
      metricName: FAILURE_METRIC,
      metricValue: '1',
    });
  failureFilter('FailedAnswersFilter', sources.accessLogs, FAILURE_PATTERNS.answer);
  // Functions sharing a log group share its one filter (ServiceFunctionDefaults.sharedLogGroup).
  const filtered = new Set<ILogGroup>();
  for (const fn of functions) {
    if (filtered.has(fn.logGroup)) continue;
    filtered.add(fn.logGroup);
    const name = withoutTenantPrefix(fn.functionName, tenant);
    const shared = functions.filter((other) => other.logGroup === fn.logGroup).length > 1;
    failureFilter(
      shared ? 'FunctionsFailuresFilter' : `${pascalCase(name)}FailuresFilter`,
      fn.logGroup,
      isAuthorizer(fn, name, sources) ? FAILURE_PATTERNS.authorizerInvocation : FAILURE_PATTERNS.invocation,
    );
  }
  return new Metric({
    namespace,
    metricName: FAILURE_METRIC,
    statistic: 'Sum',
    period: FIVE_MINUTES,
    label: 'failures (5xx answers, failed invocations)',
  });
}

/** Where the failures alarm sends the operator: the access log, or the functions' logs. */
export function failuresAlarmDescription(tenant: string, threshold: number): string {
  return `At least ${threshold} failure in 5 minutes: an API answer with status 5xx (the access log's status/errorType/integrationError say which route, or that the authorizer failed), a function invocation that crashed, timed out or ran out of memory, or an investigation run that failed or timed out (CloudWatch Logs Insights over /aws/lambda/${tenantResourceName(tenant, '*')}: filter record.status in ["error","failure","timeout"] or ${ALARMED_FAILURE.field} = "${ALARMED_FAILURE.value}"). Runbook: docs/operations.md.`;
}
