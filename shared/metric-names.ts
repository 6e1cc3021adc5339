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
  /** From a metric filter on the API access logs (status 429), dimension `ApiId`. */
  throttledRequests: 'ThrottledRequests',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** The dimensions every service metric of one tenant is published with. */
export function tenantDimensions(tenant: string): { service: string; tenant: string } {
  return { service: METRICS_SERVICE, tenant };
}
