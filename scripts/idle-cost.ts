import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildTenantApp } from '../infra/build-app';
import { PROJECT_ROOT } from '../infra/constructs/service-function';
import { readWorkflowDefinitionText, toolMapItems } from '../infra/workflow/definition';
import type { EntityType } from '../shared/domain/core/entity';
import { FEED_NAMES, FEEDS, type FeedName } from '../shared/domain/feeds/declarations';
import { toolsFor } from '../shared/domain/investigation';
import {
  EXPRESS_BILLING,
  expressExecutionUsd,
  MINUTES_PER_MONTH,
  AWS_PRICES as P,
  PRICE_REGION,
  PRICES_AS_OF,
} from './aws-prices';
import {
  accessLogLineBytes,
  EXECUTION_EVENT_BYTES_AT_ALL,
  PLATFORM_RECORDS_BYTES_AT_INFO,
} from './telemetry-volume';

/**
 * What one tenant costs: every resource of the synthesised template that bills while nobody calls the
 * API (idle), and the cost of use per 1,000 plugin calls and per investigation, from the functions'
 * configured memory, the workflow's state transitions counted in the ASL, and the per-operation
 * assumptions below. `npm run cost:idle` writes the generated section of docs/cost.md; the numbers
 * in that file come from here, never from a keyboard.
 *
 *   npm run cost:idle                                  synthesise tenant "acme" (no bundling), update docs
 *   npm run cost:idle -- --template cdk.out/X.template.json --print   read a synthesised template
 *   npm run cost:idle -- -c enableWaf=true --print     any context the deployment would get
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
      `Unclassified resource type(s): ${[...unknown].sort().join(', ')}. Decide in scripts/idle-cost.ts whether they bill at idle.`,
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

// ---------- cost of use ----------

/**
 * Per-operation assumptions where this machine cannot measure AWS. Durations are warm, billed
 * milliseconds (Lambda bills per 1 ms); request units follow the store's access patterns (strongly
 * consistent reads ≤ 4 KB = 1 RRU, a transactional write = 2 WRU per item).
 */
export const ASSUMPTIONS = {
  authorizer: { ms: 40, rru: 1, wru: 1 / 12 },
  /** The representative plugin call: an incremental poll (one Query on the session partition). */
  pluginCall: { fn: 'get-session-history', ms: 40, rru: 1, wru: 0 },
  start: { fn: 'start-investigation', ms: 250, rru: 2, wru: 20 },
  steps: {
    'step-mark-active': { ms: 120, rru: 1, wru: 6 },
    'step-run-tool': { ms: 250, rru: 6, wru: 6 },
    'step-assess': { ms: 150, rru: 5, wru: 0 },
    'step-persist': { ms: 350, rru: 6, wru: 40 },
  } as Record<string, { ms: number; rru: number; wru: number }>,
  /** Polls and the report read a background investigation's client makes. */
  readsPerInvestigation: 4,
  /** Lambda's 1 ms billing granularity and the sample entities used to count a run's tools. */
  sampleEntities: [
    { type: 'ip', value: '203.0.113.7' },
    { type: 'domain', value: 'example.com' },
    { type: 'user', value: 'alice@example.com' },
    { type: 'host', value: 'web-01' },
  ] as { type: EntityType; value: string }[],
} as const;

interface AslState {
  Type: string;
  Next?: string;
  Choices?: unknown[];
  /** A Choice's fallback branch: the default deployment's path (e.g. the rules analyst). */
  Default?: string;
  End?: boolean;
  ItemsPath?: string;
  ItemProcessor?: AslStates;
  Iterator?: AslStates;
  Branches?: AslStates[];
}
interface AslStates {
  StartAt: string;
  States: Record<string, AslState>;
}

/**
 * State transitions and execution-history events along the ASL's success path (a Choice takes its
 * Default; a Parallel runs every branch). `iterations` gives each Map's item count by its ItemsPath
 * (e.g. `$.plan.tools`); a Map on the path without one is an error, so a new Map is never counted as
 * free.
 */
export function countSuccessPath(
  definition: AslStates,
  iterations: Readonly<Record<string, number>>,
): { transitions: number; events: number; tasks: number } {
  let transitions = 0;
  let events = 0;
  let tasks = 0;
  let name: string | undefined = definition.StartAt;
  const seen = new Set<string>();
  while (name && !seen.has(name)) {
    seen.add(name);
    const state: AslState | undefined = definition.States[name];
    if (!state) throw new Error(`ASL names a missing state ${name}`);
    transitions += 1;
    if (state.Type === 'Task') {
      events += 5; // entered, scheduled, started, succeeded, exited
      tasks += 1;
    } else if (state.Type === 'Map') {
      const inner = state.ItemProcessor ?? state.Iterator;
      if (!inner) throw new Error(`Map state ${name} without an item processor`);
      const count = iterations[state.ItemsPath ?? ''];
      if (count === undefined) throw new Error(`No item count for Map state ${name} (${state.ItemsPath})`);
      const once = countSuccessPath(inner, iterations);
      transitions += count * once.transitions;
      events += 4 + count * (2 + once.events);
      tasks += count * once.tasks;
    } else if (state.Type === 'Parallel') {
      events += 4; // entered, started, succeeded, exited
      for (const branch of state.Branches ?? []) {
        const path = countSuccessPath(branch, iterations);
        transitions += path.transitions;
        events += path.events - 2;
        tasks += path.tasks;
      }
    } else events += 2;
    if (state.End || state.Type === 'Succeed' || state.Type === 'Fail') break;
    name = state.Type === 'Choice' ? state.Default : state.Next;
  }
  return { transitions, events: events + 2, tasks };
}

export interface CostLine {
  item: string;
  usd: number;
  basis: string;
}

function functionMemory(template: CostTemplate, tenant: string, name: string): number {
  const fn = Object.values(template.Resources).find(
    (r) => r.Type === 'AWS::Lambda::Function' && r.Properties?.FunctionName === `sis-${tenant}-${name}`,
  );
  if (!fn) throw new Error(`The template has no function sis-${tenant}-${name}`);
  return Number(fn.Properties?.MemorySize ?? 128);
}

function lambdaLines(
  template: CostTemplate,
  tenant: string,
  name: string,
  ms: number,
  times = 1,
): CostLine[] {
  const memory = functionMemory(template, tenant, name);
  const gbSeconds = (memory / 1024) * (Math.ceil(ms) / 1000) * times;
  return [
    {
      item: `Lambda ${name}`,
      usd: times * (P.lambdaPerMillionRequests / 1e6) + gbSeconds * P.lambdaArmPerGbSecond,
      basis: `${times} × (request + ${ms} ms at ${memory} MB arm64)`,
    },
  ];
}

function dynamoLine(item: string, rru: number, wru: number): CostLine {
  return {
    item,
    usd: (rru / 1e6) * P.dynamodbPerMillionReadUnits + (wru / 1e6) * P.dynamodbPerMillionWriteUnits,
    basis: `${round(rru, 2)} RRU + ${round(wru, 2)} WRU`,
  };
}

/**
 * What the template logs and traces per successful call (infra/telemetry.ts as deployed): Lambda's
 * system log level, the stage's access-log format, the state machine's log level, and the tenant's
 * X-Ray sampling rule. Sizes of what they write: scripts/telemetry-volume.ts.
 */
export interface TemplateTelemetry {
  platformLogBytes: number;
  systemLogLevel: string;
  accessLogBytes: number;
  executionLogEventBytes: number;
  executionLogLevel: string;
  /** Share of requests X-Ray records; 0 when nothing is traced. */
  tracedShare: number;
}

export function templateTelemetry(template: CostTemplate): TemplateTelemetry {
  const ofType = (type: string) => Object.values(template.Resources).filter((r) => r.Type === type);
  const functions = ofType('AWS::Lambda::Function');
  const levels = new Set(
    functions.map(
      (f) =>
        (f.Properties?.LoggingConfig as { SystemLogLevel?: string } | undefined)?.SystemLogLevel ?? 'INFO',
    ),
  );
  // One level for all functions (ServiceFunction owns it); a mix is priced at its most verbose.
  const systemLogLevel = levels.has('DEBUG') ? 'DEBUG' : levels.has('INFO') ? 'INFO' : 'WARN';
  const stage = ofType('AWS::ApiGateway::Stage')[0];
  const format = (stage?.Properties?.AccessLogSetting as { Format?: string } | undefined)?.Format;
  const machine = ofType('AWS::StepFunctions::StateMachine')[0];
  const executionLogLevel =
    (machine?.Properties?.LoggingConfiguration as { Level?: string } | undefined)?.Level ?? 'OFF';
  const rule = ofType('AWS::XRay::SamplingRule')[0]?.Properties?.SamplingRule as
    | { FixedRate?: number; ReservoirSize?: number }
    | undefined;
  const traced = stage?.Properties?.TracingEnabled === true;
  return {
    platformLogBytes: systemLogLevel === 'WARN' ? 0 : PLATFORM_RECORDS_BYTES_AT_INFO,
    systemLogLevel,
    accessLogBytes: format ? accessLogLineBytes(format) : 0,
    executionLogEventBytes: executionLogLevel === 'ALL' ? EXECUTION_EVENT_BYTES_AT_ALL : 0,
    executionLogLevel,
    // Without a rule of its own the stage falls under X-Ray's default rule (1 request a second, then
    // 5%), which traces nearly every call of a quiet tenant.
    tracedShare: !traced ? 0 : rule ? Number(rule.FixedRate ?? 0) : 1,
  };
}

/** One authenticated API call: API Gateway, the uncached authorizer, the route function, logs, X-Ray. */
function apiCallLines(
  template: CostTemplate,
  tenant: string,
  route: { fn: string; ms: number; rru: number; wru: number },
) {
  const a = ASSUMPTIONS;
  const t = templateTelemetry(template);
  const logBytes = t.accessLogBytes + 2 * t.platformLogBytes;
  return [
    { item: 'API Gateway REST request', usd: P.apiGatewayRestPerMillionRequests / 1e6, basis: '1 request' },
    ...lambdaLines(template, tenant, 'authorizer', a.authorizer.ms),
    ...lambdaLines(template, tenant, route.fn, route.ms),
    dynamoLine(
      'DynamoDB (key read + last-use stamp, route reads/writes)',
      a.authorizer.rru + route.rru,
      a.authorizer.wru + route.wru,
    ),
    {
      item: 'CloudWatch Logs ingestion',
      usd: (logBytes / 1e9) * P.cloudWatchLogsPerGbIngested,
      basis: `${logBytes} bytes (access-log line ${t.accessLogBytes} B + two functions' platform records ${t.platformLogBytes} B each at ${t.systemLogLevel})`,
    },
    {
      item: 'X-Ray traces',
      usd: (t.tracedShare * P.xrayPerMillionTracesRecorded) / 1e6,
      basis: `${round(t.tracedShare * 100, 2)}% of requests traced (sampling rule)`,
    },
  ];
}

export interface UsageModel {
  perThousandCalls: CostLine[];
  perThousandCallsUsd: number;
  perInvestigation: CostLine[];
  perInvestigationUsd: number;
  transitionsPerInvestigation: number;
  toolsPerInvestigation: number;
  /** Billed duration of the run on the Express state machine, ms (100 ms steps). */
  expressBilledMs: number;
  /** What the same run's transitions would cost on the Standard state machine (bedrock or connector runs). */
  standardTransitionsUsd: number;
}

export function usageCostModel(template: CostTemplate, tenant: string): UsageModel {
  const a = ASSUMPTIONS;
  const t = templateTelemetry(template);
  const call = apiCallLines(template, tenant, a.pluginCall);
  const perThousandCalls = call.map((line) => ({
    ...line,
    usd: line.usd * 1000,
    basis: `1,000 × ${line.basis}`,
  }));

  const definition = JSON.parse(readWorkflowDefinitionText()) as {
    StartAt: string;
    States: Record<string, AslState>;
  };
  // The default deployment: no connector configured, so the built-in tools alone (step-run-tool).
  const toolCounts = a.sampleEntities.map((entity) => toolsFor(entity).length);
  const tools = Math.max(...toolCounts);
  const path = countSuccessPath(definition, toolMapItems({ 'step-run-tool': tools, 'step-run-intel': 0 }));
  const steps = Object.entries(a.steps);
  const stepInvocations = (name: string) => (name === 'step-run-tool' ? tools : 1);
  const stepRru = steps.reduce((sum, [name, s]) => sum + s.rru * stepInvocations(name), 0);
  const stepWru = steps.reduce((sum, [name, s]) => sum + s.wru * stepInvocations(name), 0);
  const lambdaInvocations = path.tasks;
  // The default deployment's run (rules analyst, no connector) takes the Express state machine
  // (shared/domain/investigation/workflow-type.ts): billed per execution and its duration, the steps
  // one after the other with the tools side by side.
  const runMs = steps.reduce((sum, [, s]) => sum + s.ms, 0);
  const expressBilledMs = Math.ceil(runMs / EXPRESS_BILLING.durationStepMs) * EXPRESS_BILLING.durationStepMs;
  const standardTransitionsUsd = (path.transitions / 1000) * P.stepFunctionsPerThousandTransitions;
  const perInvestigation: CostLine[] = [
    ...apiCallLines(template, tenant, a.start).map((line) => ({ ...line, item: `start: ${line.item}` })),
    {
      item: 'Step Functions Express execution',
      usd: expressExecutionUsd(runMs),
      basis: `1 request + ${expressBilledMs} ms at ${EXPRESS_BILLING.memoryStepMb} MB (Standard, for bedrock or connector runs: ${path.transitions} transitions, ${usd(standardTransitionsUsd)})`,
    },
    ...steps.flatMap(([name, s]) => lambdaLines(template, tenant, name, s.ms, stepInvocations(name))),
    dynamoLine('DynamoDB (workflow steps)', stepRru, stepWru),
    {
      item: `CloudWatch Logs ingestion (execution log ${t.executionLogLevel} + step functions)`,
      usd:
        ((path.events * t.executionLogEventBytes + lambdaInvocations * t.platformLogBytes) / 1e9) *
        P.cloudWatchLogsPerGbIngested,
      basis: `${path.events} history events × ${t.executionLogEventBytes} B + ${lambdaInvocations} invocations × ${t.platformLogBytes} B`,
    },
    {
      item: 'X-Ray trace of the run',
      usd: (t.tracedShare * P.xrayPerMillionTracesRecorded) / 1e6,
      basis: `follows the start request's sampling: ${round(t.tracedShare, 4)} traces`,
    },
    ...apiCallLines(template, tenant, a.pluginCall).map((line) => ({
      ...line,
      item: `polls and report read: ${line.item}`,
      usd: line.usd * a.readsPerInvestigation,
      basis: `${a.readsPerInvestigation} × ${line.basis}`,
    })),
  ];
  const sum = (lines: CostLine[]) => lines.reduce((total, line) => total + line.usd, 0);
  return {
    perThousandCalls,
    perThousandCallsUsd: sum(perThousandCalls),
    perInvestigation,
    perInvestigationUsd: sum(perInvestigation),
    transitionsPerInvestigation: path.transitions,
    toolsPerInvestigation: tools,
    expressBilledMs,
    standardTransitionsUsd,
  };
}

// ---------- rendering ----------

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

export function usd(value: number): string {
  if (value === 0) return '$0';
  if (value >= 0.1) return `$${value.toFixed(2)}`;
  return `$${value.toPrecision(2)}`;
}

/** Idle lines grouped by what they are, for the table. */
function groupIdle(
  lines: IdleLine[],
): { what: string; count: number; each: number; total: number; basis: string }[] {
  const groups = new Map<
    string,
    { what: string; count: number; each: number; total: number; basis: string }
  >();
  for (const line of lines) {
    const key = `${line.what}|${line.monthlyUsd}`;
    const group = groups.get(key) ?? {
      what: line.what,
      count: 0,
      each: line.monthlyUsd,
      total: 0,
      basis: line.basis,
    };
    group.count += 1;
    group.total += line.monthlyUsd;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.total - a.total);
}

export interface Variant {
  label: string;
  report: IdleReport;
}

/** The idle total less the dashboard (free for an account's first three; `dashboard=false` drops it). */
export function withoutDashboard(report: IdleReport): number {
  return report.lines
    .filter((line) => line.type !== 'AWS::CloudWatch::Dashboard')
    .reduce((sum, line) => sum + line.monthlyUsd, 0);
}

export const GENERATED_BEGIN = '<!-- BEGIN GENERATED by `npm run cost:idle`: do not edit by hand -->';
export const GENERATED_END = '<!-- END GENERATED -->';

export function renderCostSection(base: IdleReport, usage: UsageModel, variants: Variant[]): string {
  const out: string[] = [GENERATED_BEGIN, ''];
  out.push(
    `Prices: ${PRICE_REGION} list prices as of ${PRICES_AS_OF} (scripts/aws-prices.ts), free tiers not deducted. Template: tenant stack with default settings.`,
    '',
    `### Idle: ${usd(base.totalMonthlyUsd)} per tenant per month (${usd(withoutDashboard(base))} without the dashboard)`,
    '',
    '| Billed every month | Count | Each | Monthly | Basis |',
    '| --- | ---: | ---: | ---: | --- |',
  );
  for (const g of groupIdle(base.lines)) {
    out.push(`| ${g.what} | ${g.count} | ${usd(g.each)} | ${usd(g.total)} | ${g.basis} |`);
  }
  out.push(`| **Total** | ${base.lines.length} | | **${usd(base.totalMonthlyUsd)}** | |`, '');
  out.push('Settings that change the idle cost:', '');
  out.push('| Setting | Per month |', '| --- | ---: |');
  for (const variant of variants) {
    const delta = variant.report.totalMonthlyUsd - base.totalMonthlyUsd;
    out.push(`| ${variant.label} | ${delta < 0 ? `−${usd(-delta)}` : `+${usd(delta)}`} |`);
  }
  out.push('', 'Billed only when used (nothing while idle):', '');
  for (const [type, note] of [...base.usageBased].sort()) out.push(`- \`${type}\`: ${note}`);
  out.push(
    '',
    `No charge of their own: ${[...base.free.keys()]
      .sort()
      .map((t) => `\`${t}\``)
      .join(', ')}.`,
    '',
    `### Per 1,000 plugin calls: ${usd(usage.perThousandCallsUsd)}`,
    '',
    `A plugin call is one authenticated request (the representative one: an incremental poll, \`${ASSUMPTIONS.pluginCall.fn}\`) through the uncached authorizer.`,
    '',
    '| Component | Cost | Basis |',
    '| --- | ---: | --- |',
  );
  for (const line of usage.perThousandCalls) out.push(`| ${line.item} | ${usd(line.usd)} | ${line.basis} |`);
  out.push(
    '',
    `### Per investigation: ${usd(usage.perInvestigationUsd)}`,
    '',
    `One background investigation of an entity with ${usage.toolsPerInvestigation} tools with the rules analyst and no connector: the start call, one Express execution (${usage.expressBilledMs} ms billed; the same run on Standard, as bedrock and connector runs take, is ${usage.transitionsPerInvestigation} transitions, ${usd(usage.standardTransitionsUsd)} more), the step functions, and ${ASSUMPTIONS.readsPerInvestigation} polls/report reads.`,
    '',
    '| Component | Cost | Basis |',
    '| --- | ---: | --- |',
  );
  for (const line of usage.perInvestigation) out.push(`| ${line.item} | ${usd(line.usd)} | ${line.basis} |`);
  out.push('', GENERATED_END);
  return out.join('\n');
}

export function replaceGeneratedSection(document: string, section: string): string {
  const begin = document.indexOf(GENERATED_BEGIN);
  const end = document.indexOf(GENERATED_END);
  if (begin < 0 || end < begin) throw new Error('docs/cost.md has no generated section markers');
  return document.slice(0, begin) + section + document.slice(end + GENERATED_END.length);
}

// ---------- templates ----------

export function synthesizeTemplate(context: Record<string, unknown>): CostTemplate {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const { app, stack } = buildTenantApp({
    context: { ...cdkJson.context, tenant: 'acme', 'aws:cdk:bundling-stacks': [], ...context },
  });
  const assembly = app.synth();
  return assembly.getStackArtifact(stack.artifactId).template as CostTemplate;
}

/** The options docs/cost.md prices beside the default deployment. */
export const PRICED_VARIANTS: { label: string; context: Record<string, unknown> }[] = [
  { label: '`enableWaf=true` (web ACL, rate rule, 2 managed rule groups)', context: { enableWaf: 'true' } },
  {
    label: 'one SIEM pull connector (enabled schedule every 5 minutes); its secret adds $0.40',
    context: {
      siemSplunkUrl: 'https://splunk.example.com:8089',
      siemSplunkSecretArn: 'arn:aws:secretsmanager:us-east-1:111111111111:secret:sis-acme-splunk-AbCdEf',
    },
  },
  {
    label: '`dashboard=false` (no tenant dashboard: an account with many tenants keeps one of its own)',
    context: { dashboard: 'false' },
  },
];

function parseArgs(argv: string[]): { context: Record<string, unknown>; template?: string; print: boolean } {
  const context: Record<string, unknown> = {};
  let template: string | undefined;
  let print = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-c' || arg === '--context') {
      const [key, ...rest] = String(argv[++i] ?? '').split('=');
      if (key) context[key] = rest.join('=');
    } else if (arg === '--template') template = argv[++i];
    else if (arg === '--print') print = true;
  }
  return { context, ...(template ? { template } : {}), print };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const tenant = String(args.context.tenant ?? 'acme');
  const template = args.template
    ? (JSON.parse(readFileSync(args.template, 'utf8')) as CostTemplate)
    : synthesizeTemplate(args.context);
  const base = idleCostReport(template);
  const usage = usageCostModel(template, tenant);
  if (args.print || args.template || Object.keys(args.context).length) {
    for (const line of base.lines)
      console.log(`${usd(line.monthlyUsd).padStart(8)}  ${line.what}  (${line.logicalId})`);
    console.log(
      `idle per month: ${usd(base.totalMonthlyUsd)} (${usd(withoutDashboard(base))} without the dashboard)`,
    );
    console.log(
      `per 1,000 plugin calls: ${usd(usage.perThousandCallsUsd)}; per investigation: ${usd(usage.perInvestigationUsd)}`,
    );
    return;
  }
  const variants = PRICED_VARIANTS.map((v) => ({
    label: v.label,
    report: idleCostReport(synthesizeTemplate(v.context)),
  }));
  const path = join(PROJECT_ROOT, 'docs', 'cost.md');
  const section = renderCostSection(base, usage, variants);
  writeFileSync(path, replaceGeneratedSection(readFileSync(path, 'utf8'), section));
  console.log(
    `docs/cost.md updated: idle ${usd(base.totalMonthlyUsd)}/month (${usd(withoutDashboard(base))} without the dashboard), ${usd(usage.perThousandCallsUsd)} per 1,000 calls, ${usd(usage.perInvestigationUsd)} per investigation`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
