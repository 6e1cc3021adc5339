/**
 * Published AWS list prices the cost tooling uses (scripts/idle-cost.ts; bench/pricing.ts may import
 * them too): us-east-1 (N. Virginia), on-demand, first pricing tier, free tiers NOT deducted, as listed
 * on the AWS pricing pages in PRICES_AS_OF. Re-check before quoting: AWS changes prices (DynamoDB
 * on-demand throughput was halved on 2024-11-01). Each price names the page it comes from.
 */
export const PRICES_AS_OF = '2025-11';
export const PRICE_REGION = 'us-east-1';

export const AWS_PRICES = {
  // --- billed per month whether used or not ---
  /** https://aws.amazon.com/cloudwatch/pricing/ — standard-resolution alarm, per metric it evaluates. */
  cloudWatchAlarmPerMetricMonth: 0.1,
  /** https://aws.amazon.com/cloudwatch/pricing/ — custom dashboard (3 per account are free). */
  cloudWatchDashboardMonth: 3.0,
  /** https://aws.amazon.com/waf/pricing/ — web ACL. */
  wafWebAclMonth: 5.0,
  /** https://aws.amazon.com/waf/pricing/ — rule or AWS managed rule group in a web ACL. */
  wafRuleMonth: 1.0,
  /** https://aws.amazon.com/kms/pricing/ — customer-managed key. */
  kmsKeyMonth: 1.0,
  /** https://aws.amazon.com/secrets-manager/pricing/ — secret. */
  secretsManagerSecretMonth: 0.4,

  // --- billed per use ---
  /** https://aws.amazon.com/api-gateway/pricing/ — REST API, first 333 million requests/month. */
  apiGatewayRestPerMillionRequests: 3.5,
  /** https://aws.amazon.com/lambda/pricing/ — requests. */
  lambdaPerMillionRequests: 0.2,
  /** https://aws.amazon.com/lambda/pricing/ — Arm (Graviton) duration, first 7.5 billion GB-s/month. */
  lambdaArmPerGbSecond: 0.0000133334,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — after the 2024-11-01 reduction. */
  dynamodbPerMillionReadUnits: 0.125,
  dynamodbPerMillionWriteUnits: 0.625,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — Standard table class storage, beyond 25 GB. */
  dynamodbStoragePerGbMonth: 0.25,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — continuous backups (PITR), per GB of table. */
  dynamodbPitrPerGbMonth: 0.2,
  /** https://aws.amazon.com/step-functions/pricing/ — Standard workflows. */
  stepFunctionsPerThousandTransitions: 0.025,
  /** https://aws.amazon.com/step-functions/pricing/ — Express workflows, requests (executions started). */
  stepFunctionsExpressPerMillionRequests: 1.0,
  /**
   * https://aws.amazon.com/step-functions/pricing/ — Express workflows, duration, first 1,000 GB-hours
   * ($0.06 per GB-hour); billed per 64 MB of memory used and per 100 ms, each rounded up.
   */
  stepFunctionsExpressPerGbSecond: 0.0000166667,
  /** https://aws.amazon.com/sqs/pricing/ — standard queue requests (64 KB chunks). */
  sqsPerMillionRequests: 0.4,
  /** https://aws.amazon.com/eventbridge/pricing/ — Scheduler invocations. */
  schedulerPerMillionInvocations: 1.0,
  /** https://aws.amazon.com/cloudwatch/pricing/ — Logs, Standard class ingestion. */
  cloudWatchLogsPerGbIngested: 0.5,
  /** https://aws.amazon.com/cloudwatch/pricing/ — Logs storage (compressed). */
  cloudWatchLogsPerGbMonthStored: 0.03,
  /** https://aws.amazon.com/cloudwatch/pricing/ — custom metric (EMF), prorated by the hour it receives data. */
  cloudWatchCustomMetricMonth: 0.3,
  /** https://aws.amazon.com/xray/pricing/ — traces recorded. */
  xrayPerMillionTracesRecorded: 5.0,
  /** https://aws.amazon.com/waf/pricing/ — requests inspected. */
  wafPerMillionRequests: 0.6,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard storage, first 50 TB. */
  s3StandardPerGbMonth: 0.023,
  /** https://aws.amazon.com/s3/pricing/ — PUT, COPY, POST, LIST requests (S3 Standard). */
  s3PutPerThousand: 0.005,
  /** https://aws.amazon.com/s3/pricing/ — GET and other requests (S3 Standard). */
  s3GetPerThousand: 0.0004,
  /** https://aws.amazon.com/secrets-manager/pricing/ — API calls. */
  secretsManagerPer10kCalls: 0.05,
} as const;

/** Hours and minutes in the average month AWS bills by (730 hours). */
export const HOURS_PER_MONTH = 730;
export const MINUTES_PER_MONTH = HOURS_PER_MONTH * 60;

/** Express bills memory in 64 MB steps and duration in 100 ms steps (each rounded up; 64 MB at least). */
export const EXPRESS_BILLING = { memoryStepMb: 64, durationStepMs: 100 } as const;

/** What one Express execution costs: its request plus its duration at the memory it used. */
export function expressExecutionUsd(
  durationMs: number,
  memoryMb: number = EXPRESS_BILLING.memoryStepMb,
): number {
  const step = EXPRESS_BILLING;
  const billedMb = Math.max(step.memoryStepMb, Math.ceil(memoryMb / step.memoryStepMb) * step.memoryStepMb);
  const billedSeconds =
    (Math.max(1, Math.ceil(durationMs / step.durationStepMs)) * step.durationStepMs) / 1000;
  return (
    AWS_PRICES.stepFunctionsExpressPerMillionRequests / 1e6 +
    (billedMb / 1024) * billedSeconds * AWS_PRICES.stepFunctionsExpressPerGbSecond
  );
}
