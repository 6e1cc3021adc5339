import { Tracer } from '@aws-lambda-powertools/tracer';
import { METRICS_SERVICE } from './metric-names';

/**
 * Opt-in X-Ray subsegments for AWS SDK v3 calls. Every function already runs with active tracing
 * (Lambda, API Gateway and Step Functions segments form the service map); this adds one subsegment
 * per SDK call. It is kept out of shared/observability.ts on purpose: the Tracer brings
 * aws-xray-sdk-core, measured at +112 KB minified and about +40 ms of cold-start import per
 * function (docs/operations.md), so a module that wants it imports this file and pays for it.
 * It disables itself outside Lambda; outgoing HTTPS is not patched.
 */
export const tracer = new Tracer({ serviceName: METRICS_SERVICE, captureHTTPsRequests: false });

export function traceAwsClient<T extends object>(client: T): T {
  return tracer.captureAWSv3Client(client);
}
