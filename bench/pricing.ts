/**
 * Published AWS list prices used by the bench's cost model: us-east-1 (N. Virginia), on-demand, no
 * free tier, first pricing tier, as listed on the AWS pricing pages when these figures were taken
 * (PRICES_AS_OF). Re-check them before quoting costs: AWS changes prices (DynamoDB on-demand
 * throughput was halved on 2024-11-01). The deployment tooling (scripts/idle-cost.ts) publishes no
 * shared price module yet; when it does, this file should import from it instead.
 */
export const PRICES_AS_OF = '2025-11';
export const PRICE_REGION = 'us-east-1';

export const PRICES = {
  /** https://aws.amazon.com/api-gateway/pricing/ — REST APIs, first 333 million requests/month. */
  apiGatewayRestPerMillionRequests: 3.5,
  /** https://aws.amazon.com/lambda/pricing/ — requests. */
  lambdaPerMillionRequests: 0.2,
  /** https://aws.amazon.com/lambda/pricing/ — Arm (Graviton) duration, first 7.5 billion GB-s/month. */
  lambdaArmPerGbSecond: 0.0000133334,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — after the 2024-11-01 reduction. */
  dynamodbPerMillionReadUnits: 0.125,
  dynamodbPerMillionWriteUnits: 0.625,
  /** https://aws.amazon.com/step-functions/pricing/ — Standard workflows. */
  stepFunctionsPerThousandTransitions: 0.025,
  /** https://aws.amazon.com/cloudwatch/pricing/ — Logs, Standard class ingestion. */
  cloudWatchLogsPerGbIngested: 0.5,
  /** https://aws.amazon.com/xray/pricing/ — traces recorded. */
  xrayPerMillionTracesRecorded: 5,
  /** https://aws.amazon.com/ec2/pricing/on-demand/ — data transfer out to the internet, first 10 TB/month. */
  dataTransferOutPerGb: 0.09,
  /** https://aws.amazon.com/ec2/pricing/on-demand/ — t4g.small (2 vCPU, 2 GiB), Linux. */
  t4gSmallPerHour: 0.0168,
  /** https://aws.amazon.com/ebs/pricing/ — gp3 storage. */
  ebsGp3PerGbMonth: 0.08,
} as const;

/** What the cost model assumes where this machine cannot measure it; each is stated in the report. */
export const ASSUMPTIONS = {
  /** Lambda's JSON platform records per invocation (platform.start, platform.report with X-Ray fields). */
  lambdaPlatformLogBytesPerInvocation: 600,
  /** One line of the stage's JSON access log (infra/constructs/service-api.ts, 23 fields filled in). */
  accessLogBytesPerRequest: 650,
  /**
   * X-Ray's default sampling rule records the first request each second and 5% of the rest; at
   * volume that approaches 5% of requests (one trace per API request or workflow step invocation).
   */
  xraySampledShare: 0.05,
  /** A self-hosted alternative: one always-on t4g.small with a 20 GB gp3 volume. */
  anchorEbsGb: 20,
  hoursPerMonth: 730,
  /** Polls a background investigation's client makes (every few seconds while it runs) before it reads the report. */
  pollsPerBackgroundInvestigation: 3,
} as const;

export function anchorMonthlyCost(): number {
  return (
    PRICES.t4gSmallPerHour * ASSUMPTIONS.hoursPerMonth + PRICES.ebsGp3PerGbMonth * ASSUMPTIONS.anchorEbsGb
  );
}
