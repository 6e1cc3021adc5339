import { beforeAll, describe, expect, it } from 'vitest';
import { WRITE_BACK_STATUSES } from '../../../infra/workflow/definition';
import { physicalTableName, TABLE_IDS, TABLES } from '../../../shared/store/tables';
import {
  type CfnResource,
  resourcesOfType,
  rolePolicies,
  synthTenantStack,
  type TemplateJson,
} from '../../support/synth';

/**
 * What keeps a tenant's data safe, asserted on the synthesised template so that removing any of it
 * fails here: tables restorable (PITR), undeletable (deletion protection + Retain) unless the tenant
 * is a test tenant (`removalPolicy=destroy`), encrypted (AWS owned key by default, the operator's
 * key on request), expiring what should expire (TTL); queues TLS-only with dead letters; the
 * workflow logged (failure events with their data) and traced, and its ended runs written back by an EventBridge rule.
 */
const KMS_KEY = 'arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab';

let retained: TemplateJson;
let destroyable: TemplateJson;

beforeAll(() => {
  retained = synthTenantStack().template.toJSON() as TemplateJson;
  destroyable = synthTenantStack({
    removalPolicy: 'destroy',
    kmsKeyArn: KMS_KEY,
    sessionRetentionDays: 90,
    auditRetentionDays: 0,
  }).template.toJSON() as TemplateJson;
});

function tables(t: TemplateJson): [string, CfnResource][] {
  return TABLE_IDS.map((id) => {
    const entry = [...resourcesOfType(t, 'AWS::DynamoDB::Table')].find(
      ([, table]) => table.Properties.TableName === physicalTableName('test', id),
    );
    if (!entry) throw new Error(`no table ${id}`);
    return entry;
  });
}

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

function policyStatements(t: TemplateJson): Statement[] {
  return rolePolicies(t).flatMap((p) => p.statements as Statement[]);
}

describe('tables', () => {
  it('are restorable to any second of the last 35 days (PITR) and expire items by TTL', () => {
    for (const t of [retained, destroyable]) {
      for (const [id, table] of tables(t)) {
        expect(table.Properties.PointInTimeRecoverySpecification, id).toEqual({
          PointInTimeRecoveryEnabled: true,
        });
        expect(table.Properties.TimeToLiveSpecification, id).toEqual({
          AttributeName: TABLES.keys.ttlAttribute,
          Enabled: true,
        });
        expect(table.Properties.BillingMode, id).toBe('PAY_PER_REQUEST');
      }
    }
  });

  it("hand every function each kind's retention, from which the store writes the TTL attribute", () => {
    const retention = (t: TemplateJson) =>
      [...resourcesOfType(t, 'AWS::Lambda::Function').values()].map((fn) => {
        const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
        return [
          env.SIS_SESSION_RETENTION_DAYS,
          env.SIS_INCIDENT_RETENTION_DAYS,
          env.SIS_GRAPH_RETENTION_DAYS,
          env.SIS_AUDIT_RETENTION_DAYS,
        ].join();
      });
    expect(new Set(retention(retained))).toEqual(new Set(['365,365,180,2555']));
    expect(new Set(retention(destroyable))).toEqual(new Set(['90,365,180,0']));
  });

  it('survive stack deletion and replacement, and refuse deletion, by default', () => {
    for (const [id, table] of tables(retained)) {
      expect(table.DeletionPolicy, id).toBe('Retain');
      expect((table as { UpdateReplacePolicy?: string }).UpdateReplacePolicy, id).toBe('Retain');
      expect(table.Properties.DeletionProtectionEnabled, id).toBe(true);
    }
  });

  it('are deleted with the stack only for a tenant deployed with removalPolicy=destroy', () => {
    for (const [id, table] of tables(destroyable)) {
      expect(table.DeletionPolicy, id).toBe('Delete');
      expect(table.Properties.DeletionProtectionEnabled, id).toBe(false);
    }
  });

  it('are encrypted with an AWS owned key by default (no KMS cost) and with the given key on request', () => {
    for (const [id, table] of tables(retained)) {
      // SSEEnabled false is DynamoDB's spelling of "encrypted with an AWS owned key".
      expect(table.Properties.SSESpecification, id).toEqual({ SSEEnabled: false });
    }
    for (const [id, table] of tables(destroyable)) {
      expect(table.Properties.SSESpecification, id).toEqual({
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: KMS_KEY,
      });
    }
    expect(resourcesOfType(retained, 'AWS::KMS::Key').size).toBe(0);
    expect(resourcesOfType(destroyable, 'AWS::KMS::Key').size).toBe(0);
  });

  it('with a customer-managed key, lets exactly the functions that use a table use the key, through DynamoDB only', () => {
    const statements = policyStatements(destroyable);
    const kms = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')));
    expect(kms.length).toBeGreaterThan(0);
    for (const s of kms) {
      expect(s.Resource).toBe(KMS_KEY);
      expect(s.Condition).toEqual({ StringLike: { 'kms:ViaService': 'dynamodb.*.amazonaws.com' } });
      expect([s.Action].flat().every((a) => !a.includes('*'))).toBe(true);
    }
    const usesTable = new Set<string>();
    const usesKey = new Set<string>();
    for (const policy of rolePolicies(destroyable)) {
      const roles = JSON.stringify(policy.roles);
      const doc = JSON.stringify(policy.statements);
      if (doc.includes('"dynamodb:')) usesTable.add(roles);
      if (doc.includes('"kms:Decrypt"')) usesKey.add(roles);
    }
    expect([...usesKey].sort()).toEqual([...usesTable].sort());
    expect(JSON.stringify(policyStatements(retained))).not.toContain('kms:');
  });
});

describe('queues', () => {
  const queues = (t: TemplateJson) => [...resourcesOfType(t, 'AWS::SQS::Queue')];

  it('accept only TLS and are encrypted at rest', () => {
    const policies = [...resourcesOfType(retained, 'AWS::SQS::QueuePolicy').values()];
    expect(queues(retained).length).toBeGreaterThan(0);
    for (const [id, queue] of queues(retained)) {
      expect(queue.Properties.SqsManagedSseEnabled ?? queue.Properties.KmsMasterKeyId, id).toBeTruthy();
      const guarding = policies.filter((p) => JSON.stringify(p.Properties.Queues).includes(`"${id}"`));
      const denies = guarding.flatMap((p) =>
        (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement.filter(
          (s) =>
            s.Effect === 'Deny' &&
            JSON.stringify(s.Condition) === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }),
        ),
      );
      expect(denies.length, `${id} enforceSSL`).toBeGreaterThan(0);
    }
  });

  it('that a function consumes redrive to a dead-letter queue kept 14 days, after a bounded number of receives', () => {
    const consumed = new Set(
      [...resourcesOfType(retained, 'AWS::Lambda::EventSourceMapping').values()].map(
        (m) => (m.Properties.EventSourceArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] as string,
      ),
    );
    expect(consumed.size, 'the incident queue has a consumer').toBeGreaterThan(0);
    for (const id of consumed) {
      const queue = retained.Resources[id] as CfnResource;
      const redrive = queue.Properties.RedrivePolicy as {
        deadLetterTargetArn: unknown;
        maxReceiveCount: number;
      };
      expect(redrive, id).toBeDefined();
      expect(redrive.maxReceiveCount).toBeGreaterThanOrEqual(1);
      expect(redrive.maxReceiveCount).toBeLessThanOrEqual(10);
      const dlqId = (redrive.deadLetterTargetArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] as string;
      expect(retained.Resources[dlqId]?.Properties.MessageRetentionPeriod, dlqId).toBe(14 * 24 * 3600);
    }
    for (const mapping of resourcesOfType(retained, 'AWS::Lambda::EventSourceMapping').values()) {
      // Partial batch failures: one bad message does not send its whole batch round again.
      expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    }
  });

  it('are retained with the stack by default and deleted with a destroyable one', () => {
    for (const [id, queue] of queues(retained)) expect(queue.DeletionPolicy, id).toBe('Retain');
    for (const [id, queue] of queues(destroyable)) expect(queue.DeletionPolicy, id).toBe('Delete');
  });
});

describe('workflow', () => {
  it('logs every failure event (ERROR, with data) of both state machines to a log group each, with retention, and traces', () => {
    const machines = [...resourcesOfType(retained, 'AWS::StepFunctions::StateMachine').values()];
    expect(machines.map((m) => m.Properties.StateMachineType).sort()).toEqual(['EXPRESS', 'STANDARD']);
    const groups = new Set<string>();
    for (const machine of machines) {
      expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
      const logging = machine.Properties.LoggingConfiguration as {
        Level: string;
        IncludeExecutionData: boolean;
        Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': string[] } } }[];
      };
      expect(logging.Level).toBe('ERROR');
      expect(logging.IncludeExecutionData).toBe(true);
      const groupId = logging.Destinations[0]?.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0] as string;
      expect(retained.Resources[groupId]?.Type).toBe('AWS::Logs::LogGroup');
      // For Express these logs are the only execution history (no DescribeExecution): kept, not forever.
      expect(retained.Resources[groupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
      groups.add(groupId);
    }
    expect(groups.size).toBe(2);
  });

  it('writes failed, timed-out and aborted runs back through an EventBridge rule with retries and a DLQ', () => {
    const rules = [...resourcesOfType(retained, 'AWS::Events::Rule').values()];
    const writeBack = rules.find((r) =>
      JSON.stringify(r.Properties.EventPattern).includes('Step Functions Execution Status Change'),
    );
    expect(writeBack).toBeDefined();
    const pattern = writeBack?.Properties.EventPattern as { source: string[]; detail: { status: string[] } };
    expect(pattern.source).toEqual(['aws.states']);
    expect([...pattern.detail.status].sort()).toEqual([...WRITE_BACK_STATUSES].sort());
    expect(writeBack?.Properties.State).toBe('ENABLED');
    for (const rule of rules) {
      for (const target of rule.Properties.Targets as Record<string, unknown>[]) {
        expect(target.DeadLetterConfig).toBeDefined();
        expect(target.RetryPolicy).toBeDefined();
      }
    }
  });
});

describe('logs', () => {
  it('every log group has a retention (no never-expiring storage) and follows the removal policy', () => {
    const groups = [...resourcesOfType(retained, 'AWS::Logs::LogGroup')];
    expect(groups.length).toBeGreaterThan(0);
    for (const [id, group] of groups) {
      expect(group.Properties.RetentionInDays, id).toBe(30);
      expect(group.DeletionPolicy, id).toBe('Retain');
    }
    for (const [id, group] of resourcesOfType(destroyable, 'AWS::Logs::LogGroup')) {
      expect(group.DeletionPolicy, id).toBe('Delete');
    }
  });
});
