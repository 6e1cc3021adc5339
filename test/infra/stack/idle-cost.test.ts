import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/constructs/service-function';
import { GENERATED_BEGIN, GENERATED_END, renderCostSection } from '../../../scripts/cost/cost-section';
import {
  CostClassificationError,
  type CostTemplate,
  idleCostReport,
} from '../../../scripts/cost/idle-resources';
import { countSuccessPath, usageCostModel } from '../../../scripts/cost/usage-model';
import { PRICED_VARIANTS, synthesizeTemplate } from '../../../scripts/idle-cost';

/**
 * Near-zero idle cost, proved on the template: nothing runs or is reserved while nobody calls the
 * API, every resource type is classified as idle-billed, usage-billed or free, the idle list is
 * exactly the template's idle-billed resources, and docs/cost.md shows what the script computes now.
 */
let template: CostTemplate;
let variants: { label: string; template: CostTemplate }[];

beforeAll(() => {
  template = synthesizeTemplate({});
  variants = PRICED_VARIANTS.map((v) => ({ label: v.label, template: synthesizeTemplate(v.context) }));
});

const typesOf = (t: CostTemplate) => new Set(Object.values(t.Resources).map((r) => r.Type));
const ofType = (t: CostTemplate, type: string) => Object.values(t.Resources).filter((r) => r.Type === type);

describe('nothing runs or is reserved at idle', () => {
  it('has no VPC, NAT gateway, instance, container, database server or cache', () => {
    for (const t of [template, ...variants.map((v) => v.template)]) {
      const always = [...typesOf(t)].filter((type) =>
        /^AWS::(EC2|ECS|EKS|RDS|ElastiCache|OpenSearchService|Elasticsearch|MSK|Redshift|DocDB|Neptune|Batch|AutoScaling|ElasticLoadBalancing|ElasticLoadBalancingV2|Kinesis|AppRunner|Lightsail)::/.test(
          type,
        ),
      );
      expect(always).toEqual([]);
    }
  });

  it('reserves no capacity: on-demand tables, no provisioned concurrency, no stage cache', () => {
    for (const table of ofType(template, 'AWS::DynamoDB::Table')) {
      expect(table.Properties?.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties?.ProvisionedThroughput).toBeUndefined();
    }
    expect(typesOf(template).has('AWS::ApplicationAutoScaling::ScalableTarget')).toBe(false);
    for (const type of ['AWS::Lambda::Version', 'AWS::Lambda::Alias']) {
      for (const r of ofType(template, type))
        expect(r.Properties?.ProvisionedConcurrencyConfig).toBeUndefined();
    }
    for (const stage of ofType(template, 'AWS::ApiGateway::Stage')) {
      expect(stage.Properties?.CacheClusterEnabled ?? false).toBe(false);
    }
    // Both types bill per use only: Standard per transition, Express per execution and duration.
    for (const machine of ofType(template, 'AWS::StepFunctions::StateMachine')) {
      expect(['STANDARD', 'EXPRESS']).toContain(machine.Properties?.StateMachineType);
    }
    // Schedules of unconfigured SIEM connectors exist but never fire; what does run on a timer at idle
    // (the stale-session sweeper, the public feeds' refresh, on by default) runs at most every 5
    // minutes (the feeds hourly), and is priced in the idle list.
    for (const schedule of ofType(template, 'AWS::Scheduler::Schedule')) {
      const feeds = String(schedule.Properties?.Name).endsWith('-feeds-refresh');
      expect(schedule.Properties?.State).toBe(feeds ? 'ENABLED' : 'DISABLED');
      if (feeds) expect(schedule.Properties?.ScheduleExpression).toBe('rate(1 hour)');
    }
    for (const rule of ofType(template, 'AWS::Events::Rule')) {
      const expression = rule.Properties?.ScheduleExpression;
      if (expression) expect(String(expression)).toMatch(/^rate\((5|[1-9]\d+) minutes\)$|hours?\)$|days?\)$/);
    }
  });

  it('refuses to price what it does not know, or what would bill every hour', () => {
    expect(() => idleCostReport({ Resources: { Nat: { Type: 'AWS::EC2::NatGateway' } } })).toThrow(
      CostClassificationError,
    );
    expect(() =>
      idleCostReport({
        Resources: {
          T: { Type: 'AWS::DynamoDB::Table', Properties: { BillingMode: 'PROVISIONED' } },
        },
      }),
    ).toThrow(/provisioned/);
  });
});

describe('the idle list', () => {
  it('classifies every resource type of the template (and of the priced options)', () => {
    for (const t of [template, ...variants.map((v) => v.template)])
      expect(() => idleCostReport(t)).not.toThrow();
  });

  it('is exactly the template’s alarms, dashboard, web ACL, keys, secrets, queue pollers and enabled schedules', () => {
    const report = idleCostReport(template);
    const count = (type: string) => report.lines.filter((line) => line.type === type).length;
    expect(count('AWS::CloudWatch::Alarm')).toBe(ofType(template, 'AWS::CloudWatch::Alarm').length);
    expect(count('AWS::CloudWatch::Dashboard')).toBe(1);
    expect(count('AWS::WAFv2::WebACL')).toBe(0);
    expect(count('AWS::KMS::Key')).toBe(0);
    // No secret by default: the cursor secret is an item of the keys table (docs/api-keys.md).
    expect(count('AWS::SecretsManager::Secret')).toBe(0);
    expect(count('AWS::Lambda::EventSourceMapping')).toBe(
      ofType(template, 'AWS::Lambda::EventSourceMapping').length,
    );
    expect(count('AWS::Scheduler::Schedule')).toBe(1); // the public feeds' refresh
    const scheduledRules = ofType(template, 'AWS::Events::Rule').filter(
      (r) => r.Properties?.ScheduleExpression,
    );
    expect(count('AWS::Events::Rule')).toBe(scheduledRules.length);
    const alarmMetrics = ofType(template, 'AWS::CloudWatch::Alarm').reduce(
      (sum, a) =>
        sum +
        (a.Properties?.MetricName
          ? 1
          : ((a.Properties?.Metrics as { MetricStat?: unknown }[]) ?? []).filter((m) => m.MetricStat).length),
      0,
    );
    const alarmCost = report.lines
      .filter((line) => line.type === 'AWS::CloudWatch::Alarm')
      .reduce((sum, line) => sum + line.monthlyUsd, 0);
    expect(alarmCost).toBeCloseTo(alarmMetrics * 0.1, 6);
    expect(report.totalMonthlyUsd).toBeLessThan(10);
  });

  it('bills at most $1.00 a month with default settings, not counting the dashboard', () => {
    const report = idleCostReport(template);
    const dashboard = report.lines
      .filter((line) => line.type === 'AWS::CloudWatch::Dashboard')
      .reduce((sum, line) => sum + line.monthlyUsd, 0);
    expect(report.totalMonthlyUsd - dashboard).toBeLessThanOrEqual(1.0);
  });

  it('prices the options: WAF adds a web ACL and its rules, a SIEM connector an enabled schedule', () => {
    const base = idleCostReport(template).totalMonthlyUsd;
    const [waf, siem] = variants.map((v) => idleCostReport(v.template));
    const acl = waf?.lines.find((line) => line.type === 'AWS::WAFv2::WebACL');
    expect(acl?.monthlyUsd).toBe(5 + 3);
    expect((waf?.totalMonthlyUsd ?? 0) - base).toBeCloseTo(8, 6);
    // The SIEM pull's schedule beside the feeds' refresh.
    expect(siem?.lines.filter((line) => line.type === 'AWS::Scheduler::Schedule')).toHaveLength(2);
  });
});

describe('the cost of use', () => {
  it('counts the workflow’s transitions from the ASL (one per state on the success path, per item in each Map)', () => {
    const definition: Parameters<typeof countSuccessPath>[0] = {
      StartAt: 'A',
      States: {
        A: { Type: 'Task', Next: 'P' },
        P: {
          Type: 'Parallel',
          Branches: [
            {
              StartAt: 'M',
              States: {
                M: {
                  Type: 'Map',
                  ItemsPath: '$.plan.tools',
                  ItemProcessor: { StartAt: 'T', States: { T: { Type: 'Task', End: true } } },
                  End: true,
                },
              },
            },
            {
              StartAt: 'N',
              States: {
                N: {
                  Type: 'Map',
                  ItemsPath: '$.plan.intel_tools',
                  ItemProcessor: { StartAt: 'U', States: { U: { Type: 'Task', End: true } } },
                  End: true,
                },
              },
            },
          ],
          Next: 'C',
        },
        C: { Type: 'Choice', Choices: [{ Variable: '$.x', IsPresent: true, Next: 'X' }], Default: 'D' },
        X: { Type: 'Task', Next: 'D' },
        D: { Type: 'Succeed' },
      },
    };
    const items = { '$.plan.tools': 3, '$.plan.intel_tools': 2 };
    // A, P, M + 3 T, N + 2 U, C, D
    expect(countSuccessPath(definition, items).transitions).toBe(1 + 1 + (1 + 3) + (1 + 2) + 1 + 1);
    expect(countSuccessPath(definition, items).tasks).toBe(1 + 3 + 2);
    expect(() => countSuccessPath(definition, { '$.plan.tools': 3 })).toThrow(
      /No item count for Map state N/,
    );
    const model = usageCostModel(template, 'acme');
    // MarkActive, RunTools (Parallel), its two Maps (RunBuiltInTools, RunIntelTools: empty without a
    // connector), ChooseAnalyst (default: rules), Assess, Persist, Done, plus one RunTool per tool:
    // no per-tool Choice.
    expect(model.transitionsPerInvestigation).toBe(8 + model.toolsPerInvestigation);
    expect(model.transitionsPerInvestigation).toBe(12);
    expect(model.perThousandCallsUsd).toBeGreaterThan(0.0035); // at least API Gateway's $3.50 per million
    expect(model.perThousandCallsUsd).toBeLessThan(0.05);
    expect(model.perInvestigationUsd).toBeLessThan(0.01);
  });

  it('reads memory sizes from the template, so a bigger function costs more', () => {
    const bigger = structuredClone(template);
    for (const r of Object.values(bigger.Resources)) {
      if (r.Type === 'AWS::Lambda::Function' && r.Properties) r.Properties.MemorySize = 1024;
    }
    expect(usageCostModel(bigger, 'acme').perThousandCallsUsd).toBeGreaterThan(
      usageCostModel(template, 'acme').perThousandCallsUsd,
    );
  });
});

describe('docs/cost.md', () => {
  it('shows exactly what the script computes for the current stack (run `npm run cost:idle` after a change)', () => {
    const document = readFileSync(join(PROJECT_ROOT, 'docs', 'cost.md'), 'utf8');
    const section = document.slice(
      document.indexOf(GENERATED_BEGIN),
      document.indexOf(GENERATED_END) + GENERATED_END.length,
    );
    const expected = renderCostSection(
      idleCostReport(template),
      usageCostModel(template, 'acme'),
      variants.map((v) => ({ label: v.label, report: idleCostReport(v.template) })),
    );
    expect(section).toBe(expected);
  });
});
