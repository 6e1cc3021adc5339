/**
 * The service's own CloudWatch metrics: emitted by the functions as EMF log lines (Powertools
 * Metrics, no API call, no PutMetricData permission) and read by the stack's alarms and dashboard.
 * One module both sides import, so an alarm cannot watch a metric the code stopped emitting under
 * that name. No AWS or Powertools import here: the CDK app reads it too.
 *
 * Every metric carries the dimensions `service` and `tenant`; `ApiKeyDenied` is also published with
 * `reason`. A custom metric costs only in the hours it receives data, so nothing here costs at idle.
 */
export const METRICS_NAMESPACE = 'SecurityInvestigationService';
export const METRICS_SERVICE = 'security-investigation-service';

export const METRIC = {
  investigationsStarted: 'InvestigationsStarted',
  investigationsCompleted: 'InvestigationsCompleted',
  investigationsFailed: 'InvestigationsFailed',
  /** Milliseconds from session creation to completed. */
  investigationDuration: 'InvestigationDuration',
  /** Every refused key (401), summed over reasons; also published per `reason`. */
  apiKeyDenied: 'ApiKeyDenied',
  incidentsAccepted: 'IncidentsAccepted',
  incidentsRejected: 'IncidentsRejected',
  /** The month's Bedrock tokens as a percentage of SIS_BEDROCK_MONTHLY_TOKEN_BUDGET, after each analyst turn. */
  bedrockMonthlyBudgetUsedPercent: 'BedrockMonthlyBudgetUsedPercent',
  /** From a metric filter on the API access logs (status 429), dimension `ApiId`. */
  throttledRequests: 'ThrottledRequests',
  /** Investigations the system principal started for arriving incidents (its daily quota counts them). */
  autoInvestigationsStarted: 'AutoInvestigationsStarted',
  /** Entities of arriving incidents left for a later try: the running cap or the daily quota was reached. */
  autoInvestigationsDeferred: 'AutoInvestigationsDeferred',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/**
 * A failure the code handles itself (no invocation fails, no 5xx is answered) that must still page
 * someone, such as an investigation run that failed or timed out: logged at ERROR with this field and
 * value, which the metric filter on every function's log group counts into the tenant's one failures
 * alarm (infra/constructs/observability.ts), so it needs no alarm of its own.
 */
export const ALARMED_FAILURE = { field: 'alarm', value: 'failure' } as const;

/** The dimensions every service metric of one tenant is published with. */
export function tenantDimensions(tenant: string): { service: string; tenant: string } {
  return { service: METRICS_SERVICE, tenant };
}
