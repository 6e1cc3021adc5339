import { App, CfnWaitConditionHandle, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyFunctionGrants,
  type GrantTargets,
  MISSING_GRANT_TARGET,
} from '../../../infra/constructs/function-permissions';
import { physicalFunctionName, ServiceFunction } from '../../../infra/constructs/service-function';
import {
  FUNCTION_GRANTS,
  type FunctionGrants,
  grantsFor,
  tableActions,
} from '../../../infra/function-grants';
import { parseTenantSettings } from '../../../infra/settings';
import { TenantStack } from '../../../infra/stack';
import { ROUTES } from '../../../shared/api/routes';
import { health } from '../../../shared/api/routes/meta';
import { CURSOR_SECRET_PK } from '../../../shared/store/cursor-secret-repository';
import { physicalTableName, TABLE_IDS, type TableId } from '../../../shared/store/tables';
import { AUDIT_PK } from '../../../shared/store/tenant-knowledge/tenant-knowledge-items';
import { WEBHOOK_SECRET_PK_PATTERN } from '../../../shared/store/webhooks/webhook-items';
import {
  cdkJsonContext,
  resourcesOfType,
  rolePolicies,
  synthTenantStack,
  type TemplateJson,
} from '../../support/synth';

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** IAM statements of each function's role, keyed by function name without the tenant prefix. */
function statementsByFunction(t: TemplateJson, tenant = 'test'): Map<string, Statement[]> {
  const roleOfFunction = new Map<string, string>();
  for (const fn of resourcesOfType(t, 'AWS::Lambda::Function').values()) {
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] as string;
    roleOfFunction.set(roleId, String(fn.Properties.FunctionName).replace(`sis-${tenant}-`, ''));
  }
  const result = new Map<string, Statement[]>([...roleOfFunction.values()].map((name) => [name, []]));
  for (const policy of rolePolicies(t)) {
    for (const role of policy.roles) {
      const name = roleOfFunction.get(role);
      if (!name) continue;
      result.get(name)?.push(...(policy.statements as Statement[]));
    }
  }
  return result;
}

const actionsOf = (s: Statement) => [s.Action].flat();

function tableLogicalIds(t: TemplateJson): Map<TableId, string> {
  const byName = new Map(
    [...resourcesOfType(t, 'AWS::DynamoDB::Table')].map(([id, table]) => [table.Properties.TableName, id]),
  );
  return new Map(TABLE_IDS.map((id) => [id, byName.get(physicalTableName('test', id)) as string]));
}

describe('function grants table', () => {
  it('records a decision for every function the route table names', () => {
    const undecided = [...new Set(ROUTES.map((r) => r.functionName))].filter(
      (name) => !Object.hasOwn(FUNCTION_GRANTS, name),
    );
    expect(undecided).toEqual([]);
  });

  it('gives an unknown function nothing', () => {
    expect(grantsFor('no-such-function')).toEqual({});
    expect(grantsFor('constructor')).toEqual({});
  });

  it('never grants Scan and lets the authorizer only read keys and stamp last use', () => {
    for (const access of ['read', 'readUpdate', 'readWrite'] as const) {
      expect(tableActions(access)).not.toContain('dynamodb:Scan');
    }
    const authorizer = grantsFor('authorizer');
    expect(Object.keys(authorizer.tables ?? {})).toEqual(['keys']);
    const actions = tableActions(authorizer.tables?.keys?.access ?? 'read');
    expect(actions).toContain('dynamodb:UpdateItem');
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).not.toContain('dynamodb:DeleteItem');
  });
});

describe('grants in the synthesised stack', () => {
  let template: TemplateJson;
  let statements: Map<string, Statement[]>;
  let tables: Map<TableId, string>;

  beforeAll(() => {
    template = synthTenantStack().template.toJSON() as TemplateJson;
    statements = statementsByFunction(template);
    tables = tableLogicalIds(template);
  });

  it('gives each function exactly the table actions and indexes of its grant', () => {
    expect(statements.size).toBeGreaterThan(1);
    for (const [name, fnStatements] of statements) {
      const grants = grantsFor(name);
      const actual = new Map<string, Set<string>>();
      for (const s of fnStatements) {
        const dynamo = actionsOf(s).filter((a) => a.startsWith('dynamodb:'));
        // The cursor secret's item (one partition key of the keys table) is checked below.
        if (!dynamo.length || JSON.stringify(s.Condition ?? {}).includes('dynamodb:LeadingKeys')) continue;
        // IAM policy minimisation merges same-action statements on several tables (and indexes) into one.
        for (const resource of Array.isArray(s.Resource) ? (s.Resource as unknown[]) : [s.Resource]) {
          const key = JSON.stringify(resource);
          actual.set(key, new Set([...(actual.get(key) ?? []), ...dynamo]));
        }
      }
      const expected = new Map<string, Set<string>>();
      for (const [tableId, grant] of Object.entries(grants.tables ?? {}) as [TableId, { access: 'read' }][]) {
        // A grant held to its partitions is checked below (its statements carry LeadingKeys).
        if ((grant as { partitions?: string[] }).partitions) continue;
        const arn = { 'Fn::GetAtt': [tables.get(tableId), 'Arn'] };
        expected.set(JSON.stringify(arn), new Set(tableActions(grant.access)));
        for (const index of (grant as { indexes?: string[] }).indexes ?? []) {
          expected.set(
            JSON.stringify({ 'Fn::Join': ['', [arn, `/index/${index}`]] }),
            new Set(['dynamodb:Query']),
          );
        }
      }
      expect(actual, name).toEqual(expected);
    }
  });

  it('lets exactly the functions that page get and create the cursor secret, and the ones that name a starter read only key names, no other item of the keys table', () => {
    expect(resourcesOfType(template, 'AWS::SecretsManager::Secret').size).toBe(0);
    const keysTable = [...resourcesOfType(template, 'AWS::DynamoDB::Table')].find(([, t]) =>
      String(t.Properties.TableName).endsWith('-keys'),
    )?.[0];
    const readers = new Set<string>();
    const auditAppenders = new Set<string>();
    const keyNameReaders = new Set<string>();
    const webhookSecretUsers = new Map<string, string[]>();
    const webhookItemUsers = new Set<string>();
    const sessionsTable = [...resourcesOfType(template, 'AWS::DynamoDB::Table')].find(([, t]) =>
      String(t.Properties.TableName).endsWith('-sessions'),
    )?.[0];
    for (const [name, fnStatements] of statements) {
      for (const s of fnStatements) {
        const condition = (s as { Condition?: unknown }).Condition;
        if (!JSON.stringify(condition ?? {}).includes('dynamodb:LeadingKeys')) continue;
        if (
          JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [sessionsTable, 'Arn'] }) &&
          JSON.stringify(condition).includes('"WEBHOOK#*"')
        ) {
          // Webhook items of the sessions table (subscriptions, delivery logs), never a session.
          expect(condition, name).toEqual({
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WEBHOOKS', 'WEBHOOK#*'] },
          });
          webhookItemUsers.add(name);
          continue;
        }
        if (JSON.stringify(s.Resource) !== JSON.stringify({ 'Fn::GetAtt': [keysTable, 'Arn'] })) continue;
        if (JSON.stringify(condition).includes(`"${AUDIT_PK}"`)) {
          // Appending to the audit list: new items of its partition only, never a read.
          expect(actionsOf(s), name).toEqual(['dynamodb:PutItem']);
          expect(s.Resource, name).toEqual({ 'Fn::GetAtt': [keysTable, 'Arn'] });
          expect(condition, name).toEqual({
            'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [AUDIT_PK] },
          });
          auditAppenders.add(name);
          continue;
        }
        if (JSON.stringify(condition).includes('"KEY#*"')) {
          // Naming who started a session: the name attribute of key records only, never a hash.
          expect(actionsOf(s), name).toEqual(['dynamodb:GetItem']);
          expect(s.Resource, name).toEqual({ 'Fn::GetAtt': [keysTable, 'Arn'] });
          expect(condition, name).toEqual({
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['KEY#*'] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'name'] },
            StringEqualsIfExists: { 'dynamodb:Select': 'SPECIFIC_ATTRIBUTES' },
          });
          keyNameReaders.add(name);
          continue;
        }
        if (JSON.stringify(condition).includes(`"${WEBHOOK_SECRET_PK_PATTERN}"`)) {
          // Webhook signing secrets: their own partitions only, never a key hash or the cursor secret.
          expect(s.Resource, name).toEqual({ 'Fn::GetAtt': [keysTable, 'Arn'] });
          expect(condition, name).toEqual({
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [WEBHOOK_SECRET_PK_PATTERN] },
          });
          webhookSecretUsers.set(name, actionsOf(s).sort());
          continue;
        }
        expect(actionsOf(s).sort(), name).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
        expect(s.Resource, name).toEqual({ 'Fn::GetAtt': [keysTable, 'Arn'] });
        expect(condition, name).toEqual({
          'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [CURSOR_SECRET_PK] },
        });
        readers.add(name);
      }
    }
    const paging = [
      'console-get-session-history',
      'console-list-audit',
      'console-list-incidents',
      'console-list-sessions',
      'console-query-graph',
      'get-session-history',
      'list-incidents',
      'list-sessions',
      'mcp',
      'query-knowledge-graph',
      'search-investigations',
    ];
    expect([...readers].sort()).toEqual(paging);
    expect([...auditAppenders].sort()).toEqual([
      'add-allowlist-entry',
      'create-webhook',
      'deliver-webhook',
      'remove-allowlist-entry',
      'remove-webhook',
      'rotate-webhook-secret',
      'submit-session-feedback',
    ]);
    expect([...keyNameReaders].sort()).toEqual(['console-get-session-history', 'console-list-sessions']);
    const writeSecret = ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem'];
    expect(Object.fromEntries([...webhookSecretUsers].sort())).toEqual({
      'create-webhook': writeSecret,
      'deliver-webhook': ['dynamodb:GetItem'],
      'remove-webhook': writeSecret,
      'rotate-webhook-secret': writeSecret,
    });
    // The incident consumer reads the subscriptions through its sessions grant (auto-investigation).
    expect([...webhookItemUsers].sort()).toEqual(['deliver-webhook']);
    for (const fn of resourcesOfType(template, 'AWS::Lambda::Function').values()) {
      const env = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables;
      expect(Object.keys(env ?? {}).filter((k) => k.startsWith('SIS_CURSOR'))).toEqual([]);
    }
  });

  it('holds the allowlist and feedback functions to their own partitions of the sessions table (issue 36, item 9)', () => {
    const sessionsArn = JSON.stringify({ 'Fn::GetAtt': [tables.get('sessions'), 'Arn'] });
    const onSessions = (name: string) =>
      (statements.get(name) ?? [])
        .filter((s) => JSON.stringify(s.Resource) === sessionsArn)
        .map((s) => ({ actions: actionsOf(s).sort(), condition: s.Condition }));
    const heldTo = (...partitions: string[]) => ({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions },
    });
    const readWrite = tableActions('readWrite').sort();
    for (const name of ['add-allowlist-entry', 'remove-allowlist-entry']) {
      expect(onSessions(name), name).toEqual([
        { actions: readWrite, condition: heldTo('ALLOWLIST', 'DO_NOT_SHARE', 'CRITICAL_ASSETS') },
      ]);
    }
    expect(onSessions('list-allowlist')).toEqual([
      {
        actions: tableActions('read').sort(),
        condition: heldTo('ALLOWLIST', 'DO_NOT_SHARE', 'CRITICAL_ASSETS'),
      },
    ]);
    // The "do not share" marks, to withhold them from API keys: that partition, read only.
    expect(onSessions('query-knowledge-graph')).toEqual([
      { actions: tableActions('read').sort(), condition: heldTo('DO_NOT_SHARE') },
    ]);
    // Its own review items, and a read of the session record it reviews: never a session's writes.
    expect(onSessions('submit-session-feedback')).toEqual([
      { actions: readWrite, condition: heldTo('FEEDBACK#*') },
      { actions: ['dynamodb:GetItem', 'dynamodb:Query'], condition: heldTo('SESSION#*') },
    ]);
  });

  it('lets only key administration touch API Gateway, scoped by the tenant tag', () => {
    for (const [name, fnStatements] of statements) {
      const apigateway = fnStatements.filter((s) => actionsOf(s).some((a) => a.startsWith('apigateway:')));
      if (!grantsFor(name).apiKeyAdmin) {
        expect(apigateway, name).toEqual([]);
        continue;
      }
      expect(apigateway.length, name).toBeGreaterThan(0);
      for (const s of apigateway) {
        const resource = JSON.stringify(s.Resource);
        // Wildcard resources must carry a condition; the cache flush names its exact stage.
        if (resource.includes('*')) expect(s.Condition, `${name} ${resource}`).toBeDefined();
      }
    }
  });

  it('grants nothing beyond logs and X-Ray to functions without an entry', () => {
    for (const [name, fnStatements] of statements) {
      const grants: FunctionGrants = grantsFor(name);
      if (Object.keys(grants).length) continue;
      const actions = fnStatements.flatMap(actionsOf).sort();
      expect(actions, name).toEqual(
        [
          'logs:CreateLogStream',
          'logs:PutLogEvents',
          'xray:PutTelemetryRecords',
          'xray:PutTraceSegments',
        ].sort(),
      );
    }
  });
});

describe('grants that need the workflow and the incident queue', () => {
  const stateMachineArn = 'arn:aws:states:eu-west-1:111111111111:stateMachine:sis-grants-investigation';
  const queueArn = 'arn:aws:sqs:eu-west-1:111111111111:sis-grants-incidents';
  const grants = { health: { stateMachine: ['start', 'stop'], incidentQueueSend: true } } as const;

  function build(withTargets: boolean): TenantStack {
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const imports = new Stack(app, 'Imports');
    // CloudFormation rejects an empty template; the stack only hosts the imported references.
    new CfnWaitConditionHandle(imports, 'Placeholder');
    return new TenantStack(app, 'Grants', {
      settings: parseTenantSettings({ tenant: 'grants' }),
      routes: [health],
      grants,
      ...(withTargets
        ? {
            stateMachine: StateMachine.fromStateMachineArn(imports, 'Workflow', stateMachineArn),
            incidentQueue: Queue.fromQueueArn(imports, 'Incidents', queueArn),
          }
        : {}),
    });
  }

  it('grants execution start/stop and queue send with the variables naming them', () => {
    const template = Template.fromStack(build(true));
    template.hasResourceProperties('AWS::IAM::Role', {
      Policies: [
        Match.objectLike({
          PolicyDocument: {
            Statement: Match.arrayWith([
              Match.objectLike({ Action: 'states:StartExecution', Resource: stateMachineArn }),
              Match.objectLike({ Action: 'states:StopExecution' }),
              Match.objectLike({ Action: Match.arrayWith(['sqs:SendMessage']), Resource: queueArn }),
            ]),
          },
        }),
      ],
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: physicalFunctionName('grants', 'health'),
      Environment: {
        Variables: Match.objectLike({
          SIS_STATE_MACHINE_ARN: stateMachineArn,
          SIS_INCIDENT_QUEUE_URL: Match.anyValue(),
        }),
      },
    });
  });

  it("grants queue send on the stack's own incident queue when none is passed in", () => {
    const stack = build(false);
    const template = Template.fromStack(stack);
    const healthPolicies = Object.entries(template.findResources('AWS::IAM::Role')).filter(([id]) =>
      id.startsWith('HealthFunctionRole'),
    );
    expect(JSON.stringify(healthPolicies)).toMatch(/sqs:SendMessage/);
    Annotations.fromStack(stack).hasNoWarning(
      '/Grants/HealthFunction',
      Match.stringLikeRegexp('incident queue'),
    );
  });

  it('warns, and grants nothing, when a grant names a resource it is not given', () => {
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Bare');
    const fn = new ServiceFunction(stack, 'HealthFunction', {
      defaults: {
        tenant: 'bare',
        environment: {},
        logRetention: RetentionDays.ONE_WEEK,
        removalPolicy: RemovalPolicy.DESTROY,
      },
      name: 'health',
    });
    applyFunctionGrants(fn, { incidentQueueSend: true }, { tables: {} as GrantTargets['tables'] });
    expect(JSON.stringify(Template.fromStack(stack).toJSON())).not.toMatch(/sqs:/);
    Annotations.fromStack(stack).hasWarning('/Bare/HealthFunction', Match.stringLikeRegexp('incident queue'));
    expect(MISSING_GRANT_TARGET).toBe('sis:missing-grant-target');
  });
});
