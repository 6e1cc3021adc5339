import { AWS_PRICES, HOURS_PER_MONTH, PRICE_REGION, PRICES_AS_OF } from '../scripts/aws-prices';

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
  cloudWatchLogsPerGbIngested: AWS_PRICES.cloudWatchLogsPerGbIngested,
  xrayPerMillionTracesRecorded: AWS_PRICES.xrayPerMillionTracesRecorded,
  /** https://aws.amazon.com/ec2/pricing/on-demand/ — data transfer out to the internet, first 10 TB/month (2025-11). */
  dataTransferOutPerGb: 0.09,
  /** https://aws.amazon.com/ec2/pricing/on-demand/ — t4g.small (2 vCPU, 2 GiB), Linux, on demand (2025-11). */
  t4gSmallPerHour: 0.0168,
  /** https://aws.amazon.com/ebs/pricing/ — gp3 storage per GB-month (2025-11). */
  ebsGp3PerGbMonth: 0.08,
} as const;

/** What the cost model assumes where this machine cannot measure it; each is stated in the report. */
export const ASSUMPTIONS = {
  /** Lambda's JSON platform records per invocation (platform.start, platform.report with X-Ray fields). */
  lambdaPlatformLogBytesPerInvocation: 600,
  /** One line of the stage's JSON access log (infra/constructs/service-api.ts, 23 fields filled in). */
  accessLogBytesPerRequest: 650,
  /**
   * The state machine logs every execution event with its data (LogLevel.ALL, includeExecutionData):
   * events per successful run ≈ 2 per state entered plus execution start/end, at the size
   * scripts/idle-cost.ts assumes per event.
   */
  executionLogBytesPerEvent: 1500,
  /**
   * X-Ray records the first request each second and 5% of the rest under the default sampling rule;
   * at the volumes this model prices (millions of calls) that approaches 5% (scripts/idle-cost.ts
   * prices a quiet tenant, where nearly every request is traced).
   */
  xraySampledShare: 0.05,
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
