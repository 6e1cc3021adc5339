import type { TelemetryProfile } from '../infra/telemetry';

/**
 * What the deployed telemetry profile (infra/telemetry.ts) writes and traces per request, for the
 * cost models (bench/lib/cost-model.ts per 1M calls, scripts/cost/usage-model.ts per 1,000 calls). Sizes
 * this machine cannot observe are representative values stated here; everything else follows the
 * profile and the access-log format the stack deploys.
 */

/** CloudWatch Logs meters each event's message plus 26 bytes. */
export const LOG_EVENT_OVERHEAD_BYTES = 26;

/**
 * Lambda's JSON platform records of one successful invocation at system log level INFO:
 * platform.start (~250 B with its X-Ray fields) and platform.report (~350 B of metrics and X-Ray
 * fields). At WARN Lambda sends them only for an invocation that failed, timed out or ran out of memory.
 */
export const PLATFORM_RECORDS_BYTES_AT_INFO = 600;

/**
 * The state machine's log at level ALL with execution data: average bytes per history event of a
 * successful run (state input and output included). At ERROR a successful run logs no event.
 */
export const EXECUTION_EVENT_BYTES_AT_ALL = 1500;

/** Bytes of Lambda platform log per successful invocation under the profile. */
export function platformLogBytesPerInvocation(profile: TelemetryProfile): number {
  return profile.lambdaSystemLogLevel === 'WARN' ? 0 : PLATFORM_RECORDS_BYTES_AT_INFO;
}

/** Bytes of the state machine's log per history event of a successful run under the profile. */
export function executionLogBytesPerSuccessEvent(profile: TelemetryProfile): number {
  return profile.executionLogLevel === 'ALL' ? EXECUTION_EVENT_BYTES_AT_ALL : 0;
}

/** Share of requests (and of the workflow runs they start) X-Ray records. */
export function tracedShare(profile: TelemetryProfile): number {
  return profile.traced ? profile.traceSampleRate : 0;
}

/**
 * A representative value for each `$context` variable an access-log format may name: a successful
 * authenticated GET of a session. An unknown variable stops the model, so a field added to the
 * format is priced, not ignored.
 */
const CONTEXT_VALUES: Record<string, string> = {
  '$context.requestId': '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
  '$context.extendedRequestId': 'Bx3eYHxyoAMEcRw=',
  '$context.apiId': 'a1b2c3d4e5',
  '$context.requestTime': '24/Nov/2026:01:37:00 +0000',
  '$context.requestTimeEpoch': '1795484220000',
  '$context.identity.sourceIp': '203.0.113.10',
  '$context.identity.userAgent':
    'Mozilla/5.0 (compatible; SecurityCopilot-Plugin/1.0; +https://aka.ms/securitycopilot)',
  '$context.httpMethod': 'GET',
  '$context.resourcePath': '/api/v1/sessions/{session_id}',
  '$context.path': '/prod/api/v1/sessions/ses_01jd2x3y4z5a6b7c8d9e0f1g2h',
  '$context.protocol': 'HTTP/1.1',
  '$context.status': '200',
  '$context.responseLength': '2739',
  '$context.responseLatency': '48',
  '$context.integrationLatency': '31',
  '$context.integrationStatus': '200',
  '$context.integrationErrorMessage': '-',
  '$context.error.responseType': '-',
  '$context.error.message': '-',
  '$context.authorizer.error': '-',
  '$context.authorizer.status': '200',
  '$context.authorizer.latency': '12',
  '$context.authorizer.integrationLatency': '9',
  '$context.authorizer.keyId': 'k3m9x2p7q4r8t6v1',
  '$context.identity.apiKeyId': 'q1w2e3r4t5',
  '$context.xrayTraceId': '1-6742833c-0a1b2c3d4e5f60718293a4b5',
};

/** Bytes CloudWatch Logs meters for one access-log line of the given format (API Gateway's `$context` template). */
export function accessLogLineBytes(format: string): number {
  const line = format.replace(/\$context\.[A-Za-z.]+/g, (variable) => {
    const value = CONTEXT_VALUES[variable];
    if (value === undefined) {
      throw new Error(`The access-log format names ${variable}; give it a representative value here`);
    }
    return value;
  });
  return Buffer.byteLength(line) + LOG_EVENT_OVERHEAD_BYTES;
}
