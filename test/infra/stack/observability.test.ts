import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FAILURE_METRIC,
  FAILURE_PATTERNS,
  failureMetricNamespace,
} from '../../../infra/constructs/observability';
import { PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { ALARMED_FAILURE, METRIC, METRICS_NAMESPACE } from '../../../shared/metric-names';
import { logAlarmedFailure, logger, metrics, recordKeyDenial } from '../../../shared/observability';
import { onExecutionStatusChange } from '../../../shared/services/workflow/ended-runs';
import type { StepContext } from '../../../shared/services/workflow/step-context';
import { type CfnResource, resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * Alarms are derived from the stack's contents, so the assertions are too: every function, state
 * machine and consumer-less queue in the template must have its alarm, every alarm must notify the
 * topic, and the service metrics the alarms read must still be emitted by the code.
 */
let template: TemplateJson;
let withEmail: TemplateJson;

beforeAll(() => {
  template = synthTenantStack().template.toJSON() as TemplateJson;
  // One more synth covers both settings: an alarm address, and no dashboard.
  withEmail = synthTenantStack({
    alarmEmail: 'soc@example.com',
    dashboard: 'false',
  }).template.toJSON() as TemplateJson;
});

type MetricStat = {
  Metric: { MetricName: string; Namespace: string; Dimensions?: { Name: string; Value: unknown }[] };
};
type AlarmProps = {
  AlarmName: string;
  MetricName?: string;
  Namespace?: string;
  Dimensions?: { Name: string; Value: unknown }[];
  Metrics?: { Id: string; Expression?: string; MetricStat?: MetricStat }[];
  AlarmActions?: unknown[];
  OKActions?: unknown[];
  Threshold: number;
  ComparisonOperator: string;
  TreatMissingData?: string;
};

const alarms = (t: TemplateJson) =>
  [...resourcesOfType(t, 'AWS::CloudWatch::Alarm').values()].map(
    (a) => a.Properties as unknown as AlarmProps,
  );

/** Every metric an alarm reads: [namespace, name, dimensions as JSON]. */
function metricsOf(alarm: AlarmProps): { namespace: string; name: string; dimensions: string }[] {
  if (alarm.MetricName) {
    return [
      {
        namespace: alarm.Namespace ?? '',
        name: alarm.MetricName,
        dimensions: JSON.stringify(alarm.Dimensions ?? []),
      },
    ];
  }
  return (alarm.Metrics ?? [])
    .filter((m) => m.MetricStat)
    .map((m) => ({
      namespace: m.MetricStat?.Metric.Namespace ?? '',
      name: m.MetricStat?.Metric.MetricName ?? '',
      dimensions: JSON.stringify(m.MetricStat?.Metric.Dimensions ?? []),
    }));
}

function watches(
  t: TemplateJson,
  namespace: string,
  name: string,
  dimension: string,
  value: unknown,
): AlarmProps[] {
  return alarms(t).filter((alarm) =>
    metricsOf(alarm).some(
      (m) =>
        m.namespace === namespace &&
        m.name === name &&
        (JSON.parse(m.dimensions) as { Name: string; Value: unknown }[]).some(
          (d) => d.Name === dimension && JSON.stringify(d.Value) === JSON.stringify(value),
        ),
    ),
  );
}

function topicRef(t: TemplateJson): string {
  const [topicId] = [...resourcesOfType(t, 'AWS::SNS::Topic').keys()];
  return topicId ?? '';
}

describe('alarms', () => {
  it('notify the tenant topic on alarm and on recovery, and stay quiet without data', () => {
    const topic = topicRef(template);
    expect(alarms(template).length).toBeGreaterThan(0);
    for (const alarm of alarms(template)) {
      expect(alarm.AlarmName).toMatch(/^sis-test-/);
      expect(alarm.AlarmActions, alarm.AlarmName).toContainEqual({ Ref: topic });
      expect(alarm.OKActions, alarm.AlarmName).toContainEqual({ Ref: topic });
      expect(alarm.TreatMissingData, alarm.AlarmName).toBe('notBreaching');
    }
  });

  it('watch every function for failed invocations: a failure filter on its log group feeds the failures alarm', () => {
    const failures = alarms(template).filter((a) =>
      metricsOf(a).some((m) => m.namespace === failureMetricNamespace('test') && m.name === FAILURE_METRIC),
    );
    expect(failures.map((a) => a.AlarmName)).toEqual(['sis-test-failures']);
    expect(failures[0]?.Threshold).toBe(1);
    expect(failures[0]?.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
    const filters = [...resourcesOfType(template, 'AWS::Logs::MetricFilter').values()];
    const feeding = (logGroupId: string) =>
      filters.filter(
        (f) =>
          JSON.stringify(f.Properties.LogGroupName) === JSON.stringify({ Ref: logGroupId }) &&
          JSON.stringify(f.Properties.MetricTransformations) ===
            JSON.stringify([
              {
                MetricName: FAILURE_METRIC,
                MetricNamespace: failureMetricNamespace('test'),
                MetricValue: '1',
              },
            ]),
      );
    for (const [, fn] of resourcesOfType(template, 'AWS::Lambda::Function')) {
      const name = String(fn.Properties.FunctionName);
      const logGroupId = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      const found = feeding(logGroupId);
      expect(found, name).toHaveLength(1);
      // Every refused key is a Lambda error of an authorizer: its filter counts crashes and timeouts,
      // its other failures are 5xx answers (below).
      expect(found[0]?.Properties.FilterPattern, name).toBe(
        name.endsWith('authorizer') ? FAILURE_PATTERNS.authorizerInvocation : FAILURE_PATTERNS.invocation,
      );
    }
  });

  it('count a failing authorizer, and every other 5xx answer, from the access log', () => {
    const accessLogs = [...resourcesOfType(template, 'AWS::Logs::LogGroup').keys()].find((k) =>
      k.startsWith('ApiAccessLogs'),
    ) as string;
    const filters = [...resourcesOfType(template, 'AWS::Logs::MetricFilter').values()].filter(
      (f) =>
        JSON.stringify(f.Properties.LogGroupName) === JSON.stringify({ Ref: accessLogs }) &&
        JSON.stringify(f.Properties.MetricTransformations).includes(FAILURE_METRIC),
    );
    expect(filters.map((f) => f.Properties.FilterPattern)).toEqual([FAILURE_PATTERNS.answer]);
    // The authorizer failing reaches the client (and the access log) as a 5xx gateway response.
    const responses = [...resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse').values()];
    for (const type of ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR']) {
      const response = responses.find((r) => r.Properties.ResponseType === type);
      const status = String(response?.Properties.StatusCode ?? '500');
      expect(status, type).toMatch(/^5\d\d$/);
    }
  });

  it('match failed invocations in Lambda JSON platform records, alarmed failure lines and 5xx answers', async () => {
    const timeout = { time: 't', type: 'platform.report', record: { requestId: 'r', status: 'timeout' } };
    const crashed = {
      type: 'platform.runtimeDone',
      record: { status: 'error', errorType: 'Runtime.ExitError' },
    };
    const fine = { type: 'platform.report', record: { status: 'success' } };
    const [alarmed] = await printedLines(() => logAlarmedFailure('run failed', { session_id: 's1' }));
    const [plainError] = await printedLines(() => logger.error('handled, not alarmed', { session_id: 's1' }));
    expect(alarmed).toMatchObject({ level: 'ERROR', [ALARMED_FAILURE.field]: ALARMED_FAILURE.value });
    const lines = [timeout, crashed, fine, alarmed, plainError];
    expect(lines.map((l) => matchesPattern(FAILURE_PATTERNS.invocation, l))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    // An authorizer's refusals are runtime "error"s: not counted; its crashes, timeouts and alarmed lines are.
    expect(lines.map((l) => matchesPattern(FAILURE_PATTERNS.authorizerInvocation, l))).toEqual([
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(matchesPattern(FAILURE_PATTERNS.answer, { status: '502' })).toBe(true);
    expect(matchesPattern(FAILURE_PATTERNS.answer, { status: '429' })).toBe(false);
  });

  it('count failed and timed-out runs of every Standard state machine in the failures alarm, with no alarm of their own', () => {
    const machines = [...resourcesOfType(template, 'AWS::StepFunctions::StateMachine')]
      .filter(([, machine]) => machine.Properties.StateMachineType === 'STANDARD')
      .map(([id]) => id);
    expect(machines.length).toBeGreaterThan(0);
    const filters = [...resourcesOfType(template, 'AWS::Logs::MetricFilter').values()];
    const functions = resourcesOfType(template, 'AWS::Lambda::Function');
    for (const id of machines) {
      // Every FAILED and TIMED_OUT execution is delivered to a function...
      const rules = [...resourcesOfType(template, 'AWS::Events::Rule').values()].filter((r) => {
        const detail = (r.Properties.EventPattern as { detail?: Record<string, unknown> } | undefined)
          ?.detail;
        return (
          JSON.stringify(detail?.stateMachineArn) === JSON.stringify([{ Ref: id }]) &&
          ['FAILED', 'TIMED_OUT'].every((status) =>
            (detail?.status as string[] | undefined)?.includes(status),
          )
        );
      });
      expect(rules, id).toHaveLength(1);
      const [target] = (rules[0]?.Properties.Targets ?? []) as {
        Arn: { 'Fn::GetAtt': [string, string] };
        DeadLetterConfig?: { Arn: { 'Fn::GetAtt': [string, string] } };
        RetryPolicy?: { MaximumRetryAttempts: number };
      }[];
      const fn = functions.get(target?.Arn['Fn::GetAtt'][0] ?? '');
      expect(fn, id).toBeDefined();
      // ...whose log group feeds the failures metric with the pattern that counts its alarmed lines...
      const logGroup = (fn?.Properties.LoggingConfig as { LogGroup: { Ref: string } } | undefined)?.LogGroup
        .Ref;
      const feeding = filters.filter(
        (f) =>
          JSON.stringify(f.Properties.LogGroupName) === JSON.stringify({ Ref: logGroup }) &&
          JSON.stringify(f.Properties.MetricTransformations).includes(FAILURE_METRIC),
      );
      expect(feeding.map((f) => f.Properties.FilterPattern)).toEqual([FAILURE_PATTERNS.invocation]);
      // ...with retries, and a dead-letter queue that is itself alarmed when delivery gives up.
      expect(target?.RetryPolicy?.MaximumRetryAttempts, id).toBeGreaterThan(0);
      const dlq = target?.DeadLetterConfig?.Arn['Fn::GetAtt'][0];
      expect(dlq, id).toBeDefined();
      expect(
        watches(template, 'AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', {
          'Fn::GetAtt': [dlq, 'QueueName'],
        }),
      ).toHaveLength(1);
    }
    // The state machines' own metrics would be a second, billed, alarm for the same runs.
    expect(
      alarms(template)
        .flatMap(metricsOf)
        .filter((m) => m.namespace === 'AWS/States'),
    ).toEqual([]);
  });

  it('count failed Express runs through the definition’s MarkFailed and lost ones through the sweeper, both alarmed lines', () => {
    const machines = [...resourcesOfType(template, 'AWS::StepFunctions::StateMachine')];
    const express = machines.filter(([, m]) => m.Properties.StateMachineType === 'EXPRESS').map(([id]) => id);
    expect(express).toHaveLength(1);
    // Express emits no execution status-change events: no rule names it.
    const rules = [...resourcesOfType(template, 'AWS::Events::Rule').values()];
    expect(
      rules.filter((r) => JSON.stringify(r.Properties.EventPattern ?? {}).includes(express[0]!)),
    ).toEqual([]);
    // Its failures end in MarkFailed (step-mark-failed logs an alarmed line); a run that died or passed
    // its 5 minutes is ended by the sweeper (an alarmed line too): both log groups feed the failures metric.
    const filters = [...resourcesOfType(template, 'AWS::Logs::MetricFilter').values()];
    const functions = [...resourcesOfType(template, 'AWS::Lambda::Function').values()];
    for (const name of ['step-mark-failed', 'sweep-stale-sessions']) {
      const fn = functions.find((f) => String(f.Properties.FunctionName).endsWith(`-${name}`));
      const logGroup = (fn?.Properties.LoggingConfig as { LogGroup: { Ref: string } } | undefined)?.LogGroup
        .Ref;
      expect(logGroup, name).toBeDefined();
      const feeding = filters.filter(
        (f) =>
          JSON.stringify(f.Properties.LogGroupName) === JSON.stringify({ Ref: logGroup }) &&
          JSON.stringify(f.Properties.MetricTransformations).includes(FAILURE_METRIC),
      );
      expect(
        feeding.map((f) => f.Properties.FilterPattern),
        name,
      ).toEqual([FAILURE_PATTERNS.invocation]);
    }
    expect(
      matchesPattern(FAILURE_PATTERNS.invocation, { [ALARMED_FAILURE.field]: ALARMED_FAILURE.value }),
    ).toBe(true);
  });

  it('the status-change function logs an alarmed line for FAILED and TIMED_OUT runs before anything can fail', async () => {
    const failingStore = {
      sessions: {
        get: async () => {
          throw new Error('DynamoDB unavailable');
        },
      },
    } as unknown as StepContext;
    const event = (status: string, input: string | null) => ({
      'detail-type': 'Step Functions Execution Status Change',
      detail: { executionArn: 'arn:x', name: 'run', status, input },
    });
    const alarmedLines = async (status: string, input: string | null) =>
      (
        await printedLines(() =>
          onExecutionStatusChange(failingStore, event(status, input)).catch(() => undefined),
        )
      ).filter((l) => matchesPattern(FAILURE_PATTERNS.invocation, l));
    const input = JSON.stringify({ session_id: 's1' });
    expect(await alarmedLines('FAILED', input)).toHaveLength(1);
    expect(await alarmedLines('TIMED_OUT', input)).toHaveLength(1);
    // A run's input it cannot read is still a failed run.
    expect(await alarmedLines('FAILED', null)).toHaveLength(1);
    // A stop from the console or the API is not a failure.
    expect(await alarmedLines('ABORTED', input)).toHaveLength(0);
  });

  it('watch every queue no function consumes (dead letters) for any visible message', () => {
    const consumed = new Set(
      [...resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').values()].map(
        (m) => (m.Properties.EventSourceArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0],
      ),
    );
    const deadLetters = [...resourcesOfType(template, 'AWS::SQS::Queue').keys()].filter(
      (id) => !consumed.has(id),
    );
    expect(deadLetters.length).toBeGreaterThan(0);
    for (const id of deadLetters) {
      const found = watches(template, 'AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', {
        'Fn::GetAtt': [id, 'QueueName'],
      });
      expect(found, id).toHaveLength(1);
      expect(found[0]?.Threshold).toBe(0);
      expect(found[0]?.ComparisonOperator).toBe('GreaterThanThreshold');
    }
  });

  it('watch the API: 429 answers counted from the access logs', () => {
    const [apiId] = [...resourcesOfType(template, 'AWS::ApiGateway::RestApi').keys()];
    const throttled = watches(template, METRICS_NAMESPACE, METRIC.throttledRequests, 'ApiId', { Ref: apiId });
    expect(throttled).toHaveLength(1);
    const filter = [...resourcesOfType(template, 'AWS::Logs::MetricFilter').values()].find((f) =>
      JSON.stringify(f.Properties.MetricTransformations).includes(METRIC.throttledRequests),
    );
    expect(filter?.Properties.FilterPattern).toBe('{ $.status = "429" }');
    const [stage] = [...resourcesOfType(template, 'AWS::ApiGateway::Stage').values()];
    const format = JSON.parse(
      ((stage as CfnResource).Properties.AccessLogSetting as { Format: string }).Format,
    ) as Record<string, string>;
    expect(format.apiId).toBe('$context.apiId');
    expect(format.status).toBe('$context.status');
    expect(JSON.stringify(filter?.Properties.LogGroupName)).toBe(
      JSON.stringify({
        Ref: [...resourcesOfType(template, 'AWS::Logs::LogGroup').keys()].find((k) =>
          k.startsWith('ApiAccessLogs'),
        ),
      }),
    );
  });

  it('read only service metrics the code still emits, and the code emits every declared one', () => {
    const source = sourceText(['shared', 'functions']);
    const emitted = (key: string) =>
      new RegExp(`METRIC\\.${key}\\b`).test(source) ||
      (key === 'apiKeyDenied' && /recordKeyDenial\(/.test(source));
    const fromCode = Object.entries(METRIC).filter(([key]) => key !== 'throttledRequests'); // a metric filter's
    for (const [key, name] of fromCode)
      expect(emitted(key), `${name} is emitted in shared/ or functions/`).toBe(true);
    const read = alarms(template)
      .flatMap(metricsOf)
      .filter((m) => m.namespace === METRICS_NAMESPACE)
      .map((m) => m.name);
    for (const name of read) expect(Object.values(METRIC), name).toContain(name);
  });
});

describe('alarm topic', () => {
  it('accepts only TLS and only this tenant’s alarms', () => {
    const [policy] = [...resourcesOfType(template, 'AWS::SNS::TopicPolicy').values()];
    const statements = (
      (policy as CfnResource).Properties.PolicyDocument as { Statement: Record<string, unknown>[] }
    ).Statement;
    expect(
      statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition).includes('SecureTransport')),
    ).toBe(true);
    const allow = statements.find((s) => s.Effect === 'Allow');
    expect(allow?.Principal).toEqual({ Service: 'cloudwatch.amazonaws.com' });
    expect(JSON.stringify(allow?.Condition)).toContain(':alarm:sis-test-*');
  });

  it('gets an email subscription only when alarmEmail is set', () => {
    expect(resourcesOfType(template, 'AWS::SNS::Subscription').size).toBe(0);
    const [subscription] = [...resourcesOfType(withEmail, 'AWS::SNS::Subscription').values()];
    expect(subscription?.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'soc@example.com' });
  });
});

describe('dashboard', () => {
  it('is one dashboard per tenant showing the API, investigations, refusals, ingest, functions and runs', () => {
    const dashboards = [...resourcesOfType(template, 'AWS::CloudWatch::Dashboard').values()];
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]?.Properties.DashboardName).toBe('sis-test');
    const body = JSON.stringify(dashboards[0]?.Properties.DashboardBody);
    for (const name of [
      METRIC.investigationsStarted,
      METRIC.investigationsCompleted,
      METRIC.investigationsFailed,
      METRIC.investigationDuration,
      METRIC.apiKeyDenied,
      METRIC.incidentsAccepted,
      METRIC.incidentsRejected,
      '5XXError',
      'Latency',
      'ExecutionsFailed',
    ]) {
      expect(body, name).toContain(name);
    }
  });
});

describe('without the dashboard (dashboard=false)', () => {
  it('has no dashboard and no DashboardName output, and keeps every alarm', () => {
    expect(resourcesOfType(withEmail, 'AWS::CloudWatch::Dashboard').size).toBe(0);
    expect(JSON.stringify((withEmail as { Outputs?: unknown }).Outputs ?? {})).not.toContain('DashboardName');
    expect(
      alarms(withEmail)
        .map((a) => a.AlarmName)
        .sort(),
    ).toEqual(
      alarms(template)
        .map((a) => a.AlarmName)
        .sort(),
    );
  });
});

describe('emitted metrics', () => {
  afterEach(() => vi.restoreAllMocks());

  it('counts a refused key in total and per reason, with the tenant dimension', () => {
    const published: unknown[] = [];
    const single = vi.spyOn(metrics, 'singleMetric');
    single.mockImplementation(() => {
      const fake = { addDimension: vi.fn(), addMetric: vi.fn() };
      published.push(fake);
      return fake as never;
    });
    metrics.clearMetrics();
    recordKeyDenial('expired');
    const emf = metrics.serializeMetrics() as {
      _aws: { CloudWatchMetrics: { Dimensions: string[][] }[] };
    } & Record<string, unknown>;
    expect(emf[METRIC.apiKeyDenied]).toBe(1);
    expect(emf._aws.CloudWatchMetrics[0]?.Dimensions[0]).toEqual(
      expect.arrayContaining(['service', 'tenant']),
    );
    const [byReason] = published as {
      addDimension: ReturnType<typeof vi.fn>;
      addMetric: ReturnType<typeof vi.fn>;
    }[];
    expect(byReason?.addDimension).toHaveBeenCalledWith('reason', 'expired');
    expect(byReason?.addMetric).toHaveBeenCalledWith(METRIC.apiKeyDenied, 'Count', 1);
    metrics.clearMetrics();
  });
});

/** What a logging call prints, as parsed JSON lines (Powertools writes to stdout or stderr). */
async function printedLines(log: () => unknown): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const write = (chunk: unknown) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(write);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(write);
  try {
    await log();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines;
}

/**
 * CloudWatch Logs' JSON filter syntax for the patterns used here: `{ $.a.b = "v" || ... }`, where a
 * string value may end in `*` (prefix match).
 */
function matchesPattern(pattern: string, event: unknown): boolean {
  const body = /^\{ (.*) \}$/.exec(pattern)?.[1];
  if (!body) throw new Error(`Not a JSON filter pattern: ${pattern}`);
  return body.split(' || ').some((clause) => {
    const match = /^\$\.([\w.]+) = "([^"]*)"$/.exec(clause);
    if (!match) throw new Error(`Unsupported clause: ${clause}`);
    const [, path = '', expected = ''] = match;
    const value = path
      .split('.')
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], event);
    if (typeof value !== 'string') return false;
    return expected.endsWith('*') ? value.startsWith(expected.slice(0, -1)) : value === expected;
  });
}

function sourceText(folders: string[]): string {
  const texts: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) visit(path);
      else if (path.endsWith('.ts') && !path.endsWith('metric-names.ts'))
        texts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const folder of folders) visit(join(PROJECT_ROOT, folder));
  return texts.join('\n');
}
