import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { ALARMED_FAILURE, METRIC, METRICS_NAMESPACE, METRICS_SERVICE, type MetricName } from './metric-names';

/**
 * One logger and one metrics instance per process (per Lambda cold start). Handlers
 * append the request, session and key IDs as persistent keys; key secrets and Authorization values
 * are never passed to the logger.
 */
export const logger = new Logger({ serviceName: METRICS_SERVICE });

// Outside Lambda (local runtime, tests) nothing ships EMF lines to CloudWatch; they would only
// clutter stdout. An explicit POWERTOOLS_METRICS_DISABLED still wins.
if (!process.env.AWS_LAMBDA_FUNCTION_NAME) process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

/**
 * Metrics are EMF log lines (no PutMetricData call, no extra permission), dimensioned by service and
 * tenant so tenants sharing an account keep their own numbers. Names: shared/metric-names.ts.
 */
export const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: METRICS_SERVICE,
  defaultDimensions: { tenant: process.env.SIS_TENANT ?? 'local' },
});

export function countMetric(name: MetricName, value = 1): void {
  if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
}

export function percentMetric(name: MetricName, percent: number): void {
  if (Number.isFinite(percent) && percent >= 0) metrics.addMetric(name, MetricUnit.Percent, percent);
}

export function durationMetric(name: MetricName, milliseconds: number): void {
  if (Number.isFinite(milliseconds) && milliseconds >= 0) {
    metrics.addMetric(name, MetricUnit.Milliseconds, milliseconds);
  }
}

/**
 * A refused API key: counted in total (the authorizer-errors alarm subtracts it from the Lambda's
 * errors) and per reason (the dashboard's "refused keys by reason").
 */
export function recordKeyDenial(reason: string): void {
  countMetric(METRIC.apiKeyDenied);
  const byReason = metrics.singleMetric();
  byReason.addDimension('reason', reason);
  byReason.addMetric(METRIC.apiKeyDenied, MetricUnit.Count, 1);
}

/**
 * Logs a handled failure that the tenant's failures alarm counts (ERROR level, so no log-level
 * setting filters it out; the marker field is ALARMED_FAILURE).
 */
export function logAlarmedFailure(message: string, attributes: Record<string, unknown>): void {
  logger.error(message, { ...attributes, [ALARMED_FAILURE.field]: ALARMED_FAILURE.value });
}

/** Writes the metrics recorded during this invocation; silent when there are none. */
export function flushMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
