import { beforeAll, describe, expect, it } from 'vitest';
import { physicalFunctionName } from '../../../infra/constructs/service-function';
import {
  readWorkflowDefinitionText,
  STALE_SESSION_SWEEP_FUNCTION,
  STATUS_CHANGE_FUNCTION,
  WORKFLOW_STEPS,
  WRITE_BACK_STATUSES,
  workflowTimeoutSeconds,
} from '../../../infra/workflow/definition';
import { EXPRESS_MAX_SECONDS } from '../../../shared/domain/investigation/workflow-type';
import {
  type CfnResource,
  resourcesOfType,
  rolePolicies,
  synthTenantStack,
  type TemplateJson,
} from '../../support/synth';

/** The investigation workflow as the tenant stack deploys it (synthesised with cdk-nag, no bundling). */
let template: TemplateJson;

beforeAll(() => {
  template = synthTenantStack().template.toJSON() as TemplateJson;
});

function logicalIdOfFunction(name: string): string {
  const found = [...resourcesOfType(template, 'AWS::Lambda::Function')].find(
    ([, fn]) => fn.Properties.FunctionName === physicalFunctionName('test', name),
  );
  if (!found) throw new Error(`no function ${name}`);
  return found[0];
}

type Statement = { Action: string | string[]; Resource: unknown };
function statementsOfRole(roleLogicalId: string): Statement[] {
  return rolePolicies(template)
    .filter((policy) => JSON.stringify(policy.roles) === JSON.stringify([roleLogicalId]))
    .flatMap((policy) => policy.statements as Statement[]);
}
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
/** The logical ID of a function's Role or a state machine's RoleArn. */
function roleOf(resource: CfnResource): string {
  const role = (resource.Properties.Role ?? resource.Properties.RoleArn) as {
    'Fn::GetAtt': [string, string];
  };
  return role['Fn::GetAtt'][0];
}

describe('investigation state machines', () => {
  let machineId: string;
  let machine: CfnResource;
  let expressId: string;
  let express: CfnResource;

  beforeAll(() => {
    const machines = [...resourcesOfType(template, 'AWS::StepFunctions::StateMachine')];
    expect(machines).toHaveLength(2);
    [machineId, machine] = machines.find(([, m]) => m.Properties.StateMachineType === 'STANDARD')!;
    [expressId, express] = machines.find(([, m]) => m.Properties.StateMachineType === 'EXPRESS')!;
  });

  it('deploy one definition twice: Express runs the same states as Standard, within Express’s 5 minutes', () => {
    expect(express.Properties).toMatchObject({
      StateMachineName: 'sis-test-investigation-express',
      StateMachineType: 'EXPRESS',
      LoggingConfiguration: {
        Level: 'ERROR',
        IncludeExecutionData: true,
        Destinations: [expect.any(Object)],
      },
      TracingConfiguration: { Enabled: true },
    });
    const standardDefinition = JSON.parse(readWorkflowDefinitionText()) as Record<string, unknown>;
    const expressDefinition = JSON.parse(String(express.Properties.DefinitionString)) as Record<
      string,
      unknown
    >;
    expect(expressDefinition.TimeoutSeconds).toBe(EXPRESS_MAX_SECONDS);
    expect({ ...expressDefinition, TimeoutSeconds: undefined }).toEqual({
      ...standardDefinition,
      TimeoutSeconds: undefined,
    });
    expect(express.Properties.DefinitionSubstitutions).toEqual(machine.Properties.DefinitionSubstitutions);
    // Each has its own execution log group with the tenant's retention (Express's only history).
    const groupOf = (m: CfnResource) =>
      (
        m.Properties.LoggingConfiguration as {
          Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': string[] } } }[];
        }
      ).Destinations[0]!.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0]!;
    const expressGroup = template.Resources[groupOf(express)]!;
    expect(groupOf(express)).not.toBe(groupOf(machine));
    expect(expressGroup.Properties).toMatchObject({
      LogGroupName: '/aws/vendedlogs/states/sis-test-investigation-express',
      RetentionInDays: expect.any(Number),
    });
    // Its role may invoke exactly the step functions, like Standard's.
    const invoke = statementsOfRole(roleOf(express)).filter((s) =>
      actionsOf(s).includes('lambda:InvokeFunction'),
    );
    expect(invoke).toHaveLength(1);
    expect(new Set(invoke[0]!.Resource as unknown[])).toEqual(
      new Set(WORKFLOW_STEPS.map((s) => ({ 'Fn::GetAtt': [logicalIdOfFunction(s.functionName), 'Arn'] }))),
    );
  });

  it('is a Standard workflow from the ASL file, logging failure events with their data and traced', () => {
    expect(machine.Properties).toMatchObject({
      StateMachineName: 'sis-test-investigation',
      StateMachineType: 'STANDARD',
      LoggingConfiguration: {
        Level: 'ERROR',
        IncludeExecutionData: true,
        Destinations: [expect.any(Object)],
      },
      TracingConfiguration: { Enabled: true },
      DefinitionS3Location: expect.any(Object),
    });
  });

  it('fills every ASL placeholder with the ARN of its own step function', () => {
    const substitutions = machine.Properties.DefinitionSubstitutions as Record<string, unknown>;
    expect(Object.keys(substitutions).sort()).toEqual(WORKFLOW_STEPS.map((s) => s.substitution).sort());
    for (const step of WORKFLOW_STEPS) {
      expect(substitutions[step.substitution]).toEqual({
        'Fn::GetAtt': [logicalIdOfFunction(step.functionName), 'Arn'],
      });
    }
  });

  it('may invoke exactly the step functions, unqualified', () => {
    const invoke = statementsOfRole(roleOf(machine)).filter((s) =>
      actionsOf(s).includes('lambda:InvokeFunction'),
    );
    expect(invoke).toHaveLength(1);
    expect(new Set(invoke[0]!.Resource as unknown[])).toEqual(
      new Set(WORKFLOW_STEPS.map((s) => ({ 'Fn::GetAtt': [logicalIdOfFunction(s.functionName), 'Arn'] }))),
    );
  });

  it('sends Standard’s failed, timed-out and aborted executions to the status-change function, with a DLQ (Express emits none)', () => {
    const rules = [...resourcesOfType(template, 'AWS::Events::Rule').values()].filter(
      (rule) =>
        (rule.Properties.EventPattern as { source?: string[] } | undefined)?.source?.[0] === 'aws.states',
    );
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: [...WRITE_BACK_STATUSES], stateMachineArn: [{ Ref: machineId }] },
    });
    expect(JSON.stringify(rules)).not.toContain(expressId);
    const [target] = rule.Properties.Targets as {
      Arn: unknown;
      DeadLetterConfig?: unknown;
      RetryPolicy?: unknown;
    }[];
    expect(target?.Arn).toEqual({ 'Fn::GetAtt': [logicalIdOfFunction(STATUS_CHANGE_FUNCTION), 'Arn'] });
    expect(target?.DeadLetterConfig).toBeDefined();
    expect(target?.RetryPolicy).toMatchObject({ MaximumRetryAttempts: expect.any(Number) });
  });

  it('lets only the starters start executions (on either), only cancel-investigation stop them, only the sweeper describe them (Standard only)', () => {
    const stateMachineActions = new Map<string, string[]>();
    for (const [id, fn] of resourcesOfType(template, 'AWS::Lambda::Function')) {
      const actions = statementsOfRole(roleOf(fn))
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('states:'));
      if (actions.length) stateMachineActions.set(String(fn.Properties.FunctionName), actions.sort());
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      if (actions.length) expect(env.SIS_STATE_MACHINE_ARN, id).toEqual({ Ref: machineId });
      else expect(env.SIS_STATE_MACHINE_ARN, id).toBeUndefined();
      // Only a function that starts runs knows the Express state machine; Stop and Describe are Standard only.
      if (actions.includes('states:StartExecution')) {
        expect(env.SIS_EXPRESS_STATE_MACHINE_ARN, id).toEqual({ Ref: expressId });
        const start = statementsOfRole(roleOf(fn)).filter((st) =>
          actionsOf(st).includes('states:StartExecution'),
        );
        const resources = start.flatMap((st) => (Array.isArray(st.Resource) ? st.Resource : [st.Resource]));
        expect(new Set(resources.map((r) => JSON.stringify(r)))).toEqual(
          new Set([{ Ref: expressId }, { Ref: machineId }].map((r) => JSON.stringify(r))),
        );
      } else {
        expect(env.SIS_EXPRESS_STATE_MACHINE_ARN, id).toBeUndefined();
        expect(JSON.stringify(statementsOfRole(roleOf(fn)))).not.toContain(expressId);
      }
    }
    expect(Object.fromEntries(stateMachineActions)).toEqual({
      [physicalFunctionName('test', 'start-investigation')]: ['states:StartExecution'],
      [physicalFunctionName('test', 'cancel-investigation')]: ['states:StopExecution'],
      // The console's twins of start and cancel (signed-in people instead of keys).
      [physicalFunctionName('test', 'console-start-investigation')]: ['states:StartExecution'],
      [physicalFunctionName('test', 'console-cancel-investigation')]: ['states:StopExecution'],
      [physicalFunctionName('test', STALE_SESSION_SWEEP_FUNCTION)]: ['states:DescribeExecution'],
      // The MCP endpoint's investigate_entity (docs/mcp.md).
      [physicalFunctionName('test', 'mcp')]: ['states:StartExecution'],
      // Batches start one run per entity; the incident consumer starts arriving incidents' entities.
      [physicalFunctionName('test', 'start-investigation-batch')]: ['states:StartExecution'],
      [physicalFunctionName('test', 'incident-sync-consumer')]: ['states:StartExecution'],
    });
  });

  it('gives each step a Lambda timeout below its Task timeout in the ASL', () => {
    for (const step of WORKFLOW_STEPS) {
      const fn = resourcesOfType(template, 'AWS::Lambda::Function').get(
        logicalIdOfFunction(step.functionName),
      )!;
      expect(fn.Properties.Timeout).toBe(step.timeoutSeconds);
    }
  });
});

describe('stale-session sweep', () => {
  let sweeperId: string;
  let sweeper: CfnResource;

  beforeAll(() => {
    sweeperId = logicalIdOfFunction(STALE_SESSION_SWEEP_FUNCTION);
    sweeper = resourcesOfType(template, 'AWS::Lambda::Function').get(sweeperId)!;
  });

  it('runs the sweeper every 5 minutes from a schedule, with retries and a dead-letter queue', () => {
    const schedules = [...resourcesOfType(template, 'AWS::Events::Rule').values()].filter(
      (rule) => rule.Properties.ScheduleExpression !== undefined,
    );
    expect(schedules).toHaveLength(1);
    const [schedule] = schedules;
    expect(schedule!.Properties).toMatchObject({ ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
    const targets = schedule!.Properties.Targets as {
      Arn: unknown;
      Input?: unknown;
      DeadLetterConfig?: unknown;
      RetryPolicy?: unknown;
    }[];
    expect(targets).toHaveLength(1);
    expect(targets[0]!.Arn).toEqual({ 'Fn::GetAtt': [sweeperId, 'Arn'] });
    expect(targets[0]!.DeadLetterConfig).toBeDefined();
    expect(targets[0]!.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 300, MaximumRetryAttempts: 2 });
    // EventBridge may invoke the sweeper only from this schedule.
    const permissions = [...resourcesOfType(template, 'AWS::Lambda::Permission').values()].filter((p) =>
      JSON.stringify(p.Properties.FunctionName).includes(sweeperId),
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]!.Properties).toMatchObject({
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
    });
  });

  it('gives the sweeper the workflow definition’s own TimeoutSeconds and a timeout to finish a bounded sweep', () => {
    const env = (sweeper.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env.SIS_WORKFLOW_TIMEOUT_SECONDS).toBe(String(workflowTimeoutSeconds()));
    expect(env.SIS_SESSIONS_TABLE).toBeDefined();
    expect(sweeper.Properties.Timeout).toBe(120);
  });

  it('lets the sweeper Query only the sessions table and its gsi1, never Scan, and describe only executions', () => {
    const statements = statementsOfRole(roleOf(sweeper));
    expect(statements.flatMap(actionsOf)).not.toContain('dynamodb:Scan');
    const indexQuery = statements.filter((s) => JSON.stringify(s.Resource).includes('/index/'));
    expect(indexQuery).toHaveLength(1);
    expect(actionsOf(indexQuery[0]!)).toEqual(['dynamodb:Query']);
    expect(JSON.stringify(indexQuery[0]!.Resource)).toContain('/index/gsi1');
    const describe = statements.filter((s) => actionsOf(s).includes('states:DescribeExecution'));
    expect(describe).toHaveLength(1);
    expect(actionsOf(describe[0]!)).toEqual(['states:DescribeExecution']);
    expect(JSON.stringify(describe[0]!.Resource)).toContain(':execution:');
    const onTables = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(onTables).toHaveLength(2);
    for (const s of onTables)
      expect(JSON.stringify(s.Resource)).toMatch(/^\{"Fn::(GetAtt|Join)":.*"TablesSessionsTable/);
  });
});
