import type { FeedName } from '../../shared/domain/feeds/declarations';
import { FEED_NAMES, FEEDS } from '../../shared/domain/feeds/declarations';
import { MINUTES_PER_MONTH, AWS_PRICES as P } from '../aws-prices';
import { usd } from './dollars';

/**
 * What one tenant's stack bills while nobody calls the API: every resource type of the synthesised
 * template classified as idle-billed (with its monthly cost), usage-billed or free. An unknown type is
 * an error, so a new resource is never counted as free.
 */

export interface CostResource {
  Type: string;
  Properties?: Record<string, unknown>;
}
export interface CostTemplate {
  Resources: Record<string, CostResource>;
}

/** A resource that bills every month, used or not. */
export interface IdleLine {
  logicalId: string;
  type: string;
  what: string;
  monthlyUsd: number;
  basis: string;
}

type Rule =
  | { kind: 'free'; note: string }
  | { kind: 'usage'; note: string; check?: (r: CostResource, id: string) => void }
  | { kind: 'idle'; cost: (r: CostResource, id: string, t: CostTemplate) => IdleLine | undefined };

/** Thrown for a resource type nobody has classified yet, or one that would run (and bill) always. */
export class CostClassificationError extends Error {
  override readonly name = 'CostClassificationError';
}

/** Lambda's SQS poller long-polls (20 s) with this many connections while the queue is empty. */
export const IDLE_SQS_POLLERS = 5;
export const SQS_LONG_POLL_SECONDS = 20;

function alarmMetricCount(r: CostResource): number {
  const p = r.Properties ?? {};
  if (p.MetricName) return 1;
  return ((p.Metrics as { MetricStat?: unknown }[] | undefined) ?? []).filter((m) => m.MetricStat).length;
}

function rateMinutes(expression: string): number | undefined {
  const match = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2] ?? '';
  return unit.startsWith('minute') ? value : unit.startsWith('hour') ? value * 60 : value * 1440;
}

function memoryOfTarget(t: CostTemplate, target: unknown): number {
  const id = (target as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt']?.[0];
  return Number(t.Resources[id ?? '']?.Properties?.MemorySize ?? 128);
}

/** Assumed run time of one scheduled SIEM pull (an API call or two and a few writes). */
export const SCHEDULED_PULL_SECONDS = 2;
/**
 * Assumed cost of one run of another scheduled function (the stale-session sweeper: one Query on a
 * sparse index that is empty while idle): run time, read units, log bytes.
 */
export const SCHEDULED_RUN = { seconds: 0.2, rru: 1, logBytes: 800 } as const;

/**
 * Assumed cost of refreshing one public feed (docs/feeds.md), each scheduled run of its period: the
 * download, parse and compile (Tranco's million lines take longest), one state Query and Put, one
 * S3 PUT of the compiled set (as if it changed every time), a few log lines. Measured locally with
 * `npm run bench:feeds`: Tranco's million names 6.6 s, the small feeds (fixtures) a few ms; the
 * figures here leave the network (the downloads) about twice that.
 */
export const FEED_REFRESH_SECONDS: Readonly<Partial<Record<FeedName, number>>> = {
  TRANCO: 15,
  URLHAUS: 2,
  THREATFOX: 2,
};
export const FEED_REFRESH_DEFAULT_SECONDS = 1;
export const FEED_REFRESH_RUN = { rru: 1, wruPerFeed: 1, putsPerFeed: 1, logBytes: 1500 } as const;
/** The compiled sets of every feed (gzip): Tranco's million names are most of it. */
export const FEED_SETS_MB = 15;

/**
 * The feeds' one schedule runs every `every` minutes and refreshes each feed whose own period is due:
 * on average a feed is refreshed in every/period of the runs.
 */
function feedRefreshLine(id: string, every: number, memoryMb: number): IdleLine {
  const runs = MINUTES_PER_MONTH / every;
  const share = (name: FeedName) => Math.min(1, every / FEEDS[name].refreshMinutes);
  const seconds = FEED_NAMES.reduce(
    (sum, name) => sum + share(name) * (FEED_REFRESH_SECONDS[name] ?? FEED_REFRESH_DEFAULT_SECONDS),
    0.2,
  );
  const refreshes = FEED_NAMES.reduce((sum, name) => sum + share(name), 0);
  const perRun =
    P.schedulerPerMillionInvocations / 1e6 +
    P.lambdaPerMillionRequests / 1e6 +
    (memoryMb / 1024) * seconds * P.lambdaArmPerGbSecond +
    (FEED_REFRESH_RUN.rru / 1e6) * P.dynamodbPerMillionReadUnits +
    ((FEED_REFRESH_RUN.wruPerFeed * refreshes) / 1e6) * P.dynamodbPerMillionWriteUnits +
    ((FEED_REFRESH_RUN.putsPerFeed * refreshes) / 1000) * P.s3PutPerThousand +
    (FEED_REFRESH_RUN.logBytes / 1e9) * P.cloudWatchLogsPerGbIngested;
  return {
    logicalId: id,
    type: 'AWS::Scheduler::Schedule',
    what: `public feed refresh every ${every} min, every feed enabled (each refreshed when its period is due)`,
    monthlyUsd: runs * perRun,
    basis: `${Math.round(runs)} runs × (invocation + ${seconds.toFixed(1)} s at ${memoryMb} MB + ${refreshes.toFixed(2)} feed refreshes: state write and S3 PUT each + ${FEED_REFRESH_RUN.logBytes} B of logs)`,
  };
}

function scheduledLine(
  id: string,
  type: string,
  every: number,
  memoryMb: number,
  run: { seconds: number; rru: number; logBytes: number; invokerPerMillion: number },
): IdleLine {
  const runs = MINUTES_PER_MONTH / every;
  const gbSeconds = (memoryMb / 1024) * run.seconds;
  const perRun =
    run.invokerPerMillion / 1e6 +
    P.lambdaPerMillionRequests / 1e6 +
    gbSeconds * P.lambdaArmPerGbSecond +
    (run.rru / 1e6) * P.dynamodbPerMillionReadUnits +
    (run.logBytes / 1e9) * P.cloudWatchLogsPerGbIngested;
  return {
    logicalId: id,
    type,
    what: `scheduled function run every ${every} min`,
    monthlyUsd: runs * perRun,
    basis: `${Math.round(runs)} runs × (invocation + ${run.seconds} s at ${memoryMb} MB + ${run.rru} RRU + ${run.logBytes} B of logs)`,
  };
}

const RULES: Record<string, Rule> = {
  // Billed every month.
  'AWS::CloudWatch::Alarm': {
    kind: 'idle',
    cost: (r, id) => {
      const metrics = alarmMetricCount(r);
      return {
        logicalId: id,
        type: 'AWS::CloudWatch::Alarm',
        what: metrics === 1 ? 'CloudWatch alarm' : `CloudWatch alarm on ${metrics} metrics (metric math)`,
        monthlyUsd: metrics * P.cloudWatchAlarmPerMetricMonth,
        basis: `${metrics} × ${usd(P.cloudWatchAlarmPerMetricMonth)} per alarm metric`,
      };
    },
  },
  'AWS::CloudWatch::Dashboard': {
    kind: 'idle',
    cost: (_r, id) => ({
      logicalId: id,
      type: 'AWS::CloudWatch::Dashboard',
      what: 'CloudWatch dashboard',
      monthlyUsd: P.cloudWatchDashboardMonth,
      basis: `${usd(P.cloudWatchDashboardMonth)} (free while the account has at most 3 custom dashboards)`,
    }),
  },
  'AWS::WAFv2::WebACL': {
    kind: 'idle',
    cost: (r, id) => {
      const rules = ((r.Properties?.Rules as unknown[] | undefined) ?? []).length;
      return {
        logicalId: id,
        type: 'AWS::WAFv2::WebACL',
        what: `WAF web ACL with ${rules} rules`,
        monthlyUsd: P.wafWebAclMonth + rules * P.wafRuleMonth,
        basis: `${usd(P.wafWebAclMonth)} + ${rules} × ${usd(P.wafRuleMonth)}`,
      };
    },
  },
  'AWS::KMS::Key': {
    kind: 'idle',
    cost: (_r, id) => ({
      logicalId: id,
      type: 'AWS::KMS::Key',
      what: 'KMS customer-managed key',
      monthlyUsd: P.kmsKeyMonth,
      basis: usd(P.kmsKeyMonth),
    }),
  },
  'AWS::SecretsManager::Secret': {
    kind: 'idle',
    cost: (_r, id) => ({
      logicalId: id,
      type: 'AWS::SecretsManager::Secret',
      what: 'Secrets Manager secret',
      monthlyUsd: P.secretsManagerSecretMonth,
      basis: usd(P.secretsManagerSecretMonth),
    }),
  },
  'AWS::Lambda::EventSourceMapping': {
    kind: 'idle',
    cost: (r, id) => {
      const source = JSON.stringify(r.Properties?.EventSourceArn ?? '');
      if (!/Queue|:sqs:/.test(source)) return undefined;
      const requests = IDLE_SQS_POLLERS * MINUTES_PER_MONTH * (60 / SQS_LONG_POLL_SECONDS);
      return {
        logicalId: id,
        type: 'AWS::Lambda::EventSourceMapping',
        what: 'SQS queue polled by Lambda while empty',
        monthlyUsd: (requests / 1e6) * P.sqsPerMillionRequests,
        basis: `${IDLE_SQS_POLLERS} long polls every ${SQS_LONG_POLL_SECONDS} s = ${(requests / 1e6).toFixed(3)} M requests × ${usd(P.sqsPerMillionRequests)}/M (inside SQS's 1 M free requests if the account has them)`,
      };
    },
  },
  'AWS::Scheduler::Schedule': {
    kind: 'idle',
    cost: (r, id, t) => {
      if (r.Properties?.State !== 'ENABLED') return undefined;
      const every = rateMinutes(String(r.Properties?.ScheduleExpression ?? ''));
      if (!every)
        throw new CostClassificationError(`${id}: cannot price schedule ${r.Properties?.ScheduleExpression}`);
      const target = (r.Properties?.Target ?? {}) as { Arn?: unknown; Input?: unknown };
      if (/"refresh":"due"/.test(String(target.Input ?? ''))) {
        // Priced with every feed enabled: the per-tenant upper bound.
        return feedRefreshLine(id, every, memoryOfTarget(t, target.Arn));
      }
      return scheduledLine(id, 'AWS::Scheduler::Schedule', every, memoryOfTarget(t, target.Arn), {
        seconds: SCHEDULED_PULL_SECONDS,
        rru: 2,
        logBytes: SCHEDULED_RUN.logBytes,
        invokerPerMillion: P.schedulerPerMillionInvocations,
      });
    },
  },
  'AWS::Events::Rule': {
    kind: 'idle',
    // Rules on AWS service events cost nothing; a schedule runs its target while nobody calls the API.
    cost: (r, id, t) => {
      const expression = r.Properties?.ScheduleExpression;
      if (!expression || r.Properties?.State === 'DISABLED') return undefined;
      const every = rateMinutes(String(expression));
      if (!every) throw new CostClassificationError(`${id}: cannot price schedule ${expression}`);
      const targets = (r.Properties?.Targets as { Arn?: unknown }[] | undefined) ?? [];
      if (targets.length !== 1) throw new CostClassificationError(`${id}: price each target of the schedule`);
      return scheduledLine(id, 'AWS::Events::Rule', every, memoryOfTarget(t, targets[0]?.Arn), {
        ...SCHEDULED_RUN,
        invokerPerMillion: 0,
      });
    },
  },

  'AWS::S3::Bucket': {
    kind: 'idle',
    cost: (_r, id) => ({
      logicalId: id,
      type: 'AWS::S3::Bucket',
      what: `compiled public feed sets (${FEED_NAMES.length} objects, about ${FEED_SETS_MB} MB with every feed)`,
      monthlyUsd: (FEED_SETS_MB / 1024) * P.s3StandardPerGbMonth,
      basis: `${FEED_SETS_MB} MB × ${usd(P.s3StandardPerGbMonth)}/GB-month (reads by the tool step are usage: one GET per set per cold start)`,
    }),
  },
  'AWS::S3::BucketPolicy': { kind: 'free', note: 'resource policy' },

  // Billed only when used (zero while idle).
  'AWS::ApiGateway::RestApi': {
    kind: 'usage',
    note: `${usd(P.apiGatewayRestPerMillionRequests)} per million requests`,
  },
  'AWS::Lambda::Function': {
    kind: 'usage',
    note: 'requests and GB-seconds; no provisioned concurrency',
  },
  'AWS::DynamoDB::Table': {
    kind: 'usage',
    note: 'on-demand request units; storage and PITR per GB stored (an empty table costs nothing)',
    check: (r, id) => {
      const p = r.Properties ?? {};
      if (p.BillingMode !== 'PAY_PER_REQUEST' || p.ProvisionedThroughput) {
        throw new CostClassificationError(
          `${id}: provisioned capacity bills every hour; use PAY_PER_REQUEST`,
        );
      }
    },
  },
  'AWS::Logs::LogGroup': {
    kind: 'usage',
    note: 'ingestion per GB, storage per GB-month until the retention expires',
    check: (r, id) => {
      if (!r.Properties?.RetentionInDays)
        throw new CostClassificationError(`${id}: log group without retention`);
    },
  },
  'AWS::XRay::SamplingRule': {
    kind: 'free',
    note: 'sampling rules have no charge; recorded traces are usage',
  },
  'AWS::Logs::MetricFilter': {
    kind: 'usage',
    note: 'a custom metric, billed only in hours it receives data',
  },
  'AWS::StepFunctions::StateMachine': {
    kind: 'usage',
    note: 'Standard: per state transition; Express: per execution and its duration (64 MB, 100 ms steps)',
  },
  'AWS::SQS::Queue': {
    kind: 'usage',
    note: 'per request (the idle polling of a consumed queue is listed above)',
  },
  'AWS::SNS::Topic': { kind: 'usage', note: 'per notification delivered (first 1,000 emails a month free)' },
  'AWS::SNS::Subscription': { kind: 'usage', note: 'per notification delivered' },
  'AWS::Cognito::UserPool': {
    kind: 'usage',
    note: 'Essentials plan: per monthly active user (the first 10,000 free); an empty pool costs nothing',
  },
  'AWS::Cognito::UserPoolIdentityProvider': { kind: 'usage', note: 'per monthly active federated user' },

  // No charge of their own.
  'AWS::IAM::Role': { kind: 'free', note: 'IAM' },
  'AWS::IAM::Policy': { kind: 'free', note: 'IAM' },
  'AWS::Lambda::Permission': { kind: 'free', note: 'resource policy' },
  'AWS::ApiGateway::Deployment': { kind: 'free', note: 'part of the REST API' },
  'AWS::ApiGateway::Stage': { kind: 'free', note: 'part of the REST API (no cache cluster)' },
  'AWS::ApiGateway::Resource': { kind: 'free', note: 'part of the REST API' },
  'AWS::ApiGateway::Method': { kind: 'free', note: 'part of the REST API' },
  'AWS::ApiGateway::GatewayResponse': { kind: 'free', note: 'part of the REST API' },
  'AWS::ApiGateway::Authorizer': { kind: 'free', note: 'its Lambda invocations are usage' },
  'AWS::ApiGateway::UsagePlan': { kind: 'free', note: 'usage plans and API keys have no charge' },
  'AWS::ApiGateway::DomainName': { kind: 'free', note: 'custom domain names have no charge' },
  'AWS::ApiGateway::BasePathMapping': { kind: 'free', note: 'part of the custom domain' },
  'AWS::SQS::QueuePolicy': { kind: 'free', note: 'resource policy' },
  'AWS::SNS::TopicPolicy': { kind: 'free', note: 'resource policy' },
  'AWS::Scheduler::ScheduleGroup': {
    kind: 'free',
    note: "a group of schedules (the webhooks' one-shot retries, $1.00 per million invocations, are usage)",
  },
  'AWS::Lambda::EventInvokeConfig': {
    kind: 'free',
    note: 'async-invoke retries and on-failure destination (its SNS notifications are usage)',
  },
  'AWS::WAFv2::WebACLAssociation': { kind: 'free', note: 'the web ACL is priced above' },
  'AWS::CDK::Metadata': { kind: 'free', note: 'CDK bookkeeping' },
  'AWS::Cognito::UserPoolClient': { kind: 'free', note: 'part of the user pool' },
  'AWS::Cognito::UserPoolDomain': { kind: 'free', note: 'Cognito prefix domain, no charge' },
  'AWS::Cognito::UserPoolGroup': { kind: 'free', note: 'part of the user pool' },
  'AWS::Cognito::ManagedLoginBranding': { kind: 'free', note: 'part of managed login' },
};

export interface IdleReport {
  lines: IdleLine[];
  totalMonthlyUsd: number;
  /** Resource types billed only per use, with how. */
  usageBased: Map<string, string>;
  free: Map<string, string>;
  countsByType: Map<string, number>;
}

/** Classifies every resource; throws for an unknown type or an always-billing configuration. */
export function idleCostReport(template: CostTemplate): IdleReport {
  const lines: IdleLine[] = [];
  const usageBased = new Map<string, string>();
  const free = new Map<string, string>();
  const countsByType = new Map<string, number>();
  const unknown = new Set<string>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    countsByType.set(resource.Type, (countsByType.get(resource.Type) ?? 0) + 1);
    const rule = RULES[resource.Type];
    if (!rule) {
      unknown.add(resource.Type);
      continue;
    }
    if (rule.kind === 'idle') {
      const line = rule.cost(resource, id, template);
      if (line) lines.push(line);
    } else if (rule.kind === 'usage') {
      rule.check?.(resource, id);
      usageBased.set(resource.Type, rule.note);
    } else free.set(resource.Type, rule.note);
  }
  if (unknown.size) {
    throw new CostClassificationError(
      `Unclassified resource type(s): ${[...unknown].sort().join(', ')}. Decide in scripts/cost/idle-resources.ts whether they bill at idle.`,
    );
  }
  return {
    lines,
    totalMonthlyUsd: lines.reduce((sum, line) => sum + line.monthlyUsd, 0),
    usageBased,
    free,
    countsByType,
  };
}
