import { readWorkflowDefinitionText, toolMapItems } from '../../infra/workflow/definition';
import type { EntityType } from '../../shared/domain/core/entity';
import { toolsFor } from '../../shared/domain/investigation';
import { EXPRESS_BILLING, expressExecutionUsd, AWS_PRICES as P } from '../aws-prices';
import {
  accessLogLineBytes,
  EXECUTION_EVENT_BYTES_AT_ALL,
  PLATFORM_RECORDS_BYTES_AT_INFO,
} from '../telemetry-volume';
import { round, usd } from './dollars';
import type { CostTemplate } from './idle-resources';

/**
 * The cost of use: per 1,000 plugin calls and per investigation, from the functions' configured
 * memory, the workflow's state transitions counted in the ASL, and the per-operation assumptions below.
 */

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
