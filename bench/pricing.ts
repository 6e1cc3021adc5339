import { ACCESS_LOG_FIELDS } from '../infra/constructs/service-api';
import { parseTenantSettings } from '../infra/settings';
import { MINIMUM_COMPRESSION_SIZE_BYTES, telemetryProfile } from '../infra/telemetry';
import { AWS_PRICES, HOURS_PER_MONTH, PRICE_REGION, PRICES_AS_OF } from '../scripts/aws-prices';
import {
  accessLogLineBytes,
  executionLogBytesPerSuccessEvent,
  platformLogBytesPerInvocation,
  tracedShare,
} from '../scripts/telemetry-volume';

/**
 * Prices for the bench's cost model. The AWS service prices are the deployment tooling's published
 * constants (scripts/aws-prices.ts: us-east-1 list prices, first tier, free tiers not deducted, with
 * their source pages and date); only the prices that module does not carry are added here, from the
 * same pricing pages on the same date.
 */
export { PRICE_REGION, PRICES_AS_OF };

export const PRICES = {
  apiGatewayRestPerMillionRequests: AWS_PRICES.apiGatewayRestPerMillionRequests,
  lambdaPerMillionRequests: AWS_PRICES.lambdaPerMillionRequests,
  lambdaArmPerGbSecond: AWS_PRICES.lambdaArmPerGbSecond,
  dynamodbPerMillionReadUnits: AWS_PRICES.dynamodbPerMillionReadUnits,
  dynamodbPerMillionWriteUnits: AWS_PRICES.dynamodbPerMillionWriteUnits,
  stepFunctionsPerThousandTransitions: AWS_PRICES.stepFunctionsPerThousandTransitions,
  stepFunctionsExpressPerMillionRequests: AWS_PRICES.stepFunctionsExpressPerMillionRequests,
  stepFunctionsExpressPerGbSecond: AWS_PRICES.stepFunctionsExpressPerGbSecond,
  cloudWatchLogsPerGbIngested: AWS_PRICES.cloudWatchLogsPerGbIngested,
  xrayPerMillionTracesRecorded: AWS_PRICES.xrayPerMillionTracesRecorded,
  /** https://aws.amazon.com/ec2/pricing/on-demand/ — data transfer out to the internet, first 10 TB/month (2025-11). */
  dataTransferOutPerGb: 0.09,
  /** https://aws.amazon.com/ec2/pricing/on-demand/ — t4g.small (2 vCPU, 2 GiB), Linux, on demand (2025-11). */
  t4gSmallPerHour: 0.0168,
  /** https://aws.amazon.com/ebs/pricing/ — gp3 storage per GB-month (2025-11). */
  ebsGp3PerGbMonth: 0.08,
} as const;

/** What a tenant deployed with default settings logs and traces (infra/telemetry.ts). */
const DEPLOYED_TELEMETRY = telemetryProfile(parseTenantSettings({ tenant: 'cost-model' }));

/**
 * What the cost model assumes where this machine cannot measure it; each is stated in the report.
 * The log and trace volumes follow the telemetry profile and access-log format a default deployment
 * gets (scripts/telemetry-volume.ts), not numbers of their own.
 */
export const ASSUMPTIONS = {
  telemetry: DEPLOYED_TELEMETRY,
  /** Lambda's JSON platform records per successful invocation (none at system log level WARN). */
  lambdaPlatformLogBytesPerInvocation: platformLogBytesPerInvocation(DEPLOYED_TELEMETRY),
  /** One line of the stage's JSON access log (infra/constructs/service-api.ts ACCESS_LOG_FIELDS, filled in). */
  accessLogBytesPerRequest: accessLogLineBytes(JSON.stringify(ACCESS_LOG_FIELDS)),
  /**
   * Bytes per execution history event along a successful run's path (events ≈ 2 per state entered
   * plus execution start/end): none at the state machine's default level ERROR.
   */
  executionLogBytesPerEvent: executionLogBytesPerSuccessEvent(DEPLOYED_TELEMETRY),
  /**
   * X-Ray records this share of requests (the tenant's sampling rule: fixed rate, no reservoir), one
   * trace per request; a workflow run follows the request that started it and is counted as a trace
   * of its own (an upper bound).
   */
  xraySampledShare: tracedShare(DEPLOYED_TELEMETRY),
  /**
   * API Gateway gzips answers of at least this many bytes; the model assumes the client asks for it
   * (`Accept-Encoding: gzip`, as common HTTP clients do) and bills the gzip size measured with zlib's
   * default level.
   */
  minimumCompressionSizeBytes: MINIMUM_COMPRESSION_SIZE_BYTES,
  /** A self-hosted alternative: one always-on t4g.small with a 20 GB gp3 volume. */
  anchorEbsGb: 20,
  hoursPerMonth: HOURS_PER_MONTH,
  /** Polls a background investigation's client makes (every few seconds while it runs) before it reads the report. */
  pollsPerBackgroundInvestigation: 3,
} as const;

export function anchorMonthlyCost(): number {
  return (
    PRICES.t4gSmallPerHour * ASSUMPTIONS.hoursPerMonth + PRICES.ebsGp3PerGbMonth * ASSUMPTIONS.anchorEbsGb
  );
}
