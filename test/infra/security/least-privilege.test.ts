import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';
import {
  type Allowed,
  apigateway,
  CURSOR_SECRET,
  FUNCTION_ALLOWLIST,
  logGroupOf,
  SERVICE_ROLE_ALLOWLIST,
  STAR_RESOURCE_ALLOWLIST,
  type Statement,
  TENANT,
} from './least-privilege-allowlist';

/**
 * Every permission in the synthesised tenant stack, read from the template itself (identity policies,
 * inline role policies, managed policy attachments, trust policies, resource policies), compared with
 * an allowlist kept HERE, independent of infra/function-grants.ts: a grant the stack adds without a
 * line below fails, and so does a principal (a new function, a new service role) without an entry.
 *
 * Resources are compared as rendered text: `{table/keys}` is the keys table's ARN, `{state-machine/
 * investigation.name}` the state machine's name cut out of its ARN, `<Region>` a pseudo parameter.
 */

const PSEUDO: Record<string, string> = {
  'AWS::Partition': '<Partition>',
  'AWS::Region': '<Region>',
  'AWS::AccountId': '<AccountId>',
  'AWS::URLSuffix': '<URLSuffix>',
};

function stripTenant(name: unknown): string {
  return String(name).replace(new RegExp(`^sis-${TENANT}-`), '');
}

/** EventBridge Scheduler roles (infra/constructs/scheduler-role.ts) say which function they start. */
function schedulerRoleTarget(resource: { Type: string; Properties: Record<string, unknown> }) {
  if (resource.Type !== 'AWS::IAM::Role') return undefined;
  const started = /^Lets EventBridge Scheduler start (.+)$/.exec(
    String(resource.Properties?.Description ?? ''),
  );
  return started ? `scheduler:${stripTenant(started[1])}` : undefined;
}

function symbolOf(t: TemplateJson, logicalId: string): string {
  const resource = t.Resources[logicalId];
  if (!resource) return `?${logicalId}`;
  const p = resource.Properties;
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table':
      return `table/${stripTenant(p.TableName)}`;
    case 'AWS::Lambda::Function':
      return `function/${stripTenant(p.FunctionName)}`;
    case 'AWS::StepFunctions::StateMachine':
      return `state-machine/${stripTenant(p.StateMachineName)}`;
    case 'AWS::SQS::Queue':
      return `queue/${stripTenant(p.QueueName)}`;
    case 'AWS::SNS::Topic':
      return `topic/${stripTenant(p.TopicName)}`;
    case 'AWS::Logs::LogGroup':
      return `log-group/${String(p.LogGroupName ?? logicalId)}`;
    case 'AWS::S3::Bucket':
      return 'bucket';
    case 'AWS::IAM::Role':
      return `role/${schedulerRoleTarget(resource) ?? logicalId}`;
    case 'AWS::ApiGateway::RestApi':
      return 'rest-api';
    case 'AWS::ApiGateway::UsagePlan':
      return 'usage-plan';
    default:
      return `${resource.Type}/${logicalId}`;
  }
}

function render(t: TemplateJson, value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => render(t, v));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [key, inner] = entries[0] as [string, unknown];
    if (key === 'Ref' && typeof inner === 'string') return PSEUDO[inner] ?? `{${symbolOf(t, inner)}}`;
    if (key === 'Fn::GetAtt') {
      const [id, attribute] = inner as [string, string];
      return attribute === 'Arn' ? `{${symbolOf(t, id)}}` : `{${symbolOf(t, id)}.${attribute}}`;
    }
    if (key === 'Fn::Join') {
      const [separator, parts] = inner as [string, unknown[]];
      return parts.map((part) => String(render(t, part))).join(separator);
    }
    if (key === 'Fn::Select') {
      const [position, list] = inner as [number, { 'Fn::Split'?: [string, unknown] }];
      const split = list['Fn::Split'];
      // A state machine's name is the 7th field of its ARN (what CDK does for execution ARNs).
      const source = split ? String(render(t, split[1])) : '';
      if (split?.[0] === ':' && position === 6 && source.startsWith('{state-machine/')) {
        return `${source.slice(0, -1)}.name}`;
      }
      return `{select ${position} of ${JSON.stringify(render(t, list))}}`;
    }
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, render(t, v)]));
}

interface Grant {
  principal: string;
  source: string;
  action: string;
  resource: string;
  condition: unknown;
}

/** Who a role belongs to: a function (by name), a state machine, a schedule; else the role itself. */
function principalsOfRoles(t: TemplateJson): Map<string, string> {
  const owners = new Map<string, string>();
  const roleOf = (arn: unknown): string | undefined =>
    (arn as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt']?.[0];
  for (const [, r] of Object.entries(t.Resources)) {
    const p = r.Properties ?? {};
    if (r.Type === 'AWS::Lambda::Function') {
      const role = roleOf(p.Role);
      if (role) owners.set(role, stripTenant(p.FunctionName));
    } else if (r.Type === 'AWS::StepFunctions::StateMachine') {
      const role = roleOf(p.RoleArn);
      if (role) owners.set(role, `states:${stripTenant(p.StateMachineName)}`);
    } else if (r.Type === 'AWS::ApiGateway::Method') {
      const role = roleOf((p.Integration as { Credentials?: unknown } | undefined)?.Credentials);
      if (role) owners.set(role, 'apigateway:routes');
    } else if (r.Type === 'AWS::Scheduler::Schedule') {
      const target = p.Target as { RoleArn?: unknown; Arn?: unknown };
      const role = roleOf(target.RoleArn);
      const invoked = String(render(t, target.Arn)).replace(/^\{function\/(.*)\}$/, '$1');
      if (role) owners.set(role, `scheduler:${invoked}`);
    }
  }
  for (const [id, r] of Object.entries(t.Resources)) {
    // A role only passed to Scheduler at run time (the webhooks' retries) has no schedule in the template.
    if (r.Type === 'AWS::IAM::Role' && !owners.has(id))
      owners.set(id, schedulerRoleTarget(r) ?? `role:${id}`);
  }
  return owners;
}

function grantsOf(t: TemplateJson): { grants: Grant[]; problems: string[] } {
  const owners = principalsOfRoles(t);
  const grants: Grant[] = [];
  const problems: string[] = [];
  const addStatements = (principal: string, source: string, statements: Statement[]) => {
    for (const s of statements) {
      if (s.Effect !== 'Allow') continue;
      if (s.NotAction || s.NotResource) problems.push(`${principal}: NotAction/NotResource in ${source}`);
      const resources = [s.Resource ?? []].flat().map((r) => String(render(t, r)));
      for (const action of [s.Action ?? []].flat()) {
        for (const resource of resources) {
          grants.push({ principal, source, action, resource, condition: render(t, s.Condition) });
        }
      }
    }
  };
  for (const [id, r] of Object.entries(t.Resources)) {
    const p = r.Properties ?? {};
    if (r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy') {
      for (const kind of ['Users', 'Groups']) {
        if (p[kind]) problems.push(`${id} is attached to IAM ${kind.toLowerCase()}`);
      }
      for (const role of (p.Roles as { Ref: string }[] | undefined) ?? []) {
        const principal = owners.get(role.Ref) ?? `role:${role.Ref}`;
        addStatements(principal, id, (p.PolicyDocument as { Statement: Statement[] }).Statement);
      }
    }
    if (r.Type === 'AWS::IAM::Role') {
      const principal = owners.get(id) ?? `role:${id}`;
      for (const inline of (p.Policies as {
        PolicyName: string;
        PolicyDocument: { Statement: Statement[] };
      }[]) ?? []) {
        addStatements(principal, `${id} inline ${inline.PolicyName}`, inline.PolicyDocument.Statement);
      }
      for (const managed of (p.ManagedPolicyArns as unknown[]) ?? []) {
        problems.push(`${principal} has the managed policy ${JSON.stringify(render(t, managed))}`);
      }
    }
    if (r.Type === 'AWS::IAM::User' || r.Type === 'AWS::IAM::Group')
      problems.push(`${id} is an IAM ${r.Type}`);
  }
  return { grants, problems };
}

function allowlistOf(principal: string): Allowed[] | undefined {
  if (Object.hasOwn(FUNCTION_ALLOWLIST, principal)) {
    return [
      { actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroupOf(principal)] },
      ...(FUNCTION_ALLOWLIST[principal] ?? []),
    ];
  }
  return Object.hasOwn(SERVICE_ROLE_ALLOWLIST, principal) ? SERVICE_ROLE_ALLOWLIST[principal] : undefined;
}

function isStarAllowed(grant: Grant): boolean {
  return STAR_RESOURCE_ALLOWLIST.some(
    (entry) => entry.actions.includes(grant.action) && entry.principals(grant.principal),
  );
}

/** Why a grant is not allowed, or undefined when an allowlist line covers it. */
function violation(grant: Grant): string | undefined {
  const where = `${grant.principal}: ${grant.action} on ${grant.resource}`;
  if (grant.action.includes('*')) return `${where} (wildcard action)`;
  if (/:Scan$/.test(grant.action))
    return `${where} (Scan is never granted: every read is a key or index query)`;
  if (grant.resource === '*')
    return isStarAllowed(grant) ? undefined : `${where} (Resource "*" outside the allowlist)`;
  const allowed = allowlistOf(grant.principal);
  if (!allowed) return `${where} (principal without an allowlist entry)`;
  const covering = allowed.filter(
    (a) => a.actions.includes(grant.action) && a.resources.includes(grant.resource),
  );
  if (!covering.length) return `${where} (not in the allowlist)`;
  if (
    covering.every(
      (a) => a.condition !== undefined && JSON.stringify(a.condition) !== JSON.stringify(grant.condition),
    )
  ) {
    return `${where} (condition ${JSON.stringify(grant.condition)} is not the required one)`;
  }
  return undefined;
}

let template: TemplateJson;
let grants: Grant[];
let problems: string[];

beforeAll(() => {
  template = synthTenantStack().template.toJSON() as TemplateJson;
  ({ grants, problems } = grantsOf(template));
});

describe('least privilege of every IAM principal in the template', () => {
  it('reads a policy for every role, and every role belongs to a known principal', () => {
    const owners = principalsOfRoles(template);
    expect(grants.length).toBeGreaterThan(50);
    const unknown = [...new Set(owners.values())].filter((p) => !allowlistOf(p));
    expect(unknown, 'principals without an allowlist entry').toEqual([]);
  });

  it('has no managed policies, IAM users or groups, NotAction or NotResource', () => {
    expect(problems).toEqual([]);
  });

  it('grants nothing beyond the allowlist: no wildcard action, no Scan, Resource "*" only where AWS requires it', () => {
    const violations = grants.map(violation).filter((v): v is string => v !== undefined);
    expect(violations).toEqual([]);
  });

  it('keeps the allowlist exact: every allowed action on every allowed resource is actually granted', () => {
    const present = new Set(grants.map((g) => `${g.principal} ${g.action} ${g.resource}`));
    const principals = new Set(principalsOfRoles(template).values());
    const unused: string[] = [];
    for (const principal of principals) {
      for (const allowed of allowlistOf(principal) ?? []) {
        for (const action of allowed.actions) {
          for (const resource of allowed.resources) {
            if (!present.has(`${principal} ${action} ${resource}`))
              unused.push(`${principal} ${action} ${resource}`);
          }
        }
      }
    }
    expect(unused).toEqual([]);
  });

  it('only the starters (start, batch, MCP, the incident consumer), cancel and the sweeper touch executions, only key administration touches API Gateway', () => {
    const holders = (prefix: string) =>
      [...new Set(grants.filter((g) => g.action.startsWith(prefix)).map((g) => g.principal))].sort();
    expect(holders('states:StartExecution')).toEqual([
      'console-start-investigation',
      'incident-sync-consumer',
      'mcp',
      'start-investigation',
      'start-investigation-batch',
    ]);
    expect(holders('states:StopExecution')).toEqual(['cancel-investigation', 'console-cancel-investigation']);
    expect(holders('states:DescribeExecution')).toEqual(['sweep-stale-sessions']);
    expect(holders('states:')).toEqual([
      'cancel-investigation',
      'console-cancel-investigation',
      'console-start-investigation',
      'incident-sync-consumer',
      'mcp',
      'start-investigation',
      'start-investigation-batch',
      'sweep-stale-sessions',
    ]);
    expect(holders('apigateway:')).toEqual([
      'console-create-key',
      'console-disable-key',
      'console-rotate-key',
      'create-api-key',
      'disable-api-key',
      'rotate-api-key',
    ]);
    // The whole keys table (key hashes); the functions that page reach only the cursor secret's item,
    // and the ones that name a session's starter only key records' names (both held by LeadingKeys).
    const onlyCursorSecret = (g: Grant) => JSON.stringify(g.condition ?? {}).includes('dynamodb:LeadingKeys');
    const keysTable = [
      ...new Set(
        grants
          .filter((g) => g.resource.startsWith('{table/keys}') && !onlyCursorSecret(g))
          .map((g) => g.principal),
      ),
    ];
    expect(keysTable.sort()).toEqual([
      'authorizer',
      'console-create-key',
      'console-disable-key',
      'console-list-audit',
      'console-list-keys',
      'console-rotate-key',
      'create-api-key',
      'disable-api-key',
      'list-api-keys',
      'rotate-api-key',
    ]);
  });

  it('detects a violation when one is there (the check itself can fail)', () => {
    const base = { principal: 'query-knowledge-graph', source: 'x', condition: undefined };
    // The cursor secret's item only: the same action on the keys table without the condition is refused.
    const cursorItem = CURSOR_SECRET[0]?.condition;
    expect(
      violation({ ...base, action: 'dynamodb:GetItem', resource: '{table/keys}', condition: cursorItem }),
    ).toBeUndefined();
    expect(violation({ ...base, action: 'dynamodb:GetItem', resource: '{table/keys}' })).toMatch(/condition/);
    expect(violation({ ...base, action: 'dynamodb:Query', resource: '{table/graph}' })).toBeUndefined();
    expect(violation({ ...base, action: 'dynamodb:*', resource: '{table/graph}' })).toMatch(/wildcard/);
    expect(violation({ ...base, action: 'dynamodb:Scan', resource: '{table/graph}' })).toMatch(/Scan/);
    expect(violation({ ...base, action: 'dynamodb:PutItem', resource: '{table/graph}' })).toMatch(
      /allowlist/,
    );
    expect(violation({ ...base, action: 'dynamodb:Query', resource: '{table/keys}' })).toMatch(/allowlist/);
    expect(violation({ ...base, action: 'dynamodb:GetItem', resource: '*' })).toMatch(/Resource "\*"/);
    expect(
      violation({
        ...base,
        principal: 'new-function',
        action: 'dynamodb:GetItem',
        resource: '{table/graph}',
      }),
    ).toMatch(/without an allowlist entry/);
    expect(
      violation({
        ...base,
        principal: 'create-api-key',
        action: 'apigateway:PATCH',
        resource: apigateway('/apikeys/*'),
      }),
    ).toMatch(/condition/);
  });
});

describe('trust and resource policies', () => {
  it('lets each role be assumed only by its own service, scoped to this account where AWS supports it', () => {
    const owners = principalsOfRoles(template);
    for (const [id, role] of resourcesOfType(template, 'AWS::IAM::Role')) {
      const principal = owners.get(id) ?? id;
      const statements = (role.Properties.AssumeRolePolicyDocument as { Statement: Statement[] }).Statement;
      expect(statements, principal).toHaveLength(1);
      const [statement] = statements as [Statement];
      expect(statement.Action, principal).toBe('sts:AssumeRole');
      const service = (statement.Principal as { Service?: string }).Service;
      const expected = principal.startsWith('states:')
        ? 'states.amazonaws.com'
        : principal.startsWith('apigateway:')
          ? 'apigateway.amazonaws.com'
          : principal.startsWith('scheduler:')
            ? 'scheduler.amazonaws.com'
            : 'lambda.amazonaws.com';
      expect(service, principal).toBe(expected);
      if (expected !== 'lambda.amazonaws.com') {
        expect(JSON.stringify(statement.Condition), principal).toContain('aws:SourceAccount');
      }
    }
  });

  it('lets services invoke a function only from a named source', () => {
    for (const [id, permission] of resourcesOfType(template, 'AWS::Lambda::Permission')) {
      expect(permission.Properties.Action, id).toBe('lambda:InvokeFunction');
      expect(String(permission.Properties.Principal), id).toMatch(/^[a-z]+\.amazonaws\.com$/);
      expect(permission.Properties.SourceArn, id).toBeDefined();
    }
  });

  it('opens queues and topics only to the rule or alarms that feed them, and only over TLS', () => {
    const policies = [
      ...resourcesOfType(template, 'AWS::SQS::QueuePolicy').values(),
      ...resourcesOfType(template, 'AWS::SNS::TopicPolicy').values(),
    ];
    expect(policies.length).toBeGreaterThan(0);
    for (const policy of policies) {
      const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
      expect(
        statements.some(
          (s) => s.Effect === 'Deny' && JSON.stringify(s.Condition).includes('aws:SecureTransport'),
        ),
      ).toBe(true);
      for (const s of statements.filter((st) => st.Effect === 'Allow')) {
        const principal = JSON.stringify(s.Principal);
        expect(principal, JSON.stringify(s)).toMatch(/"Service":"[a-z]+\.amazonaws\.com"/);
        expect(JSON.stringify(s.Condition), JSON.stringify(s)).toMatch(/aws:SourceArn/);
      }
    }
  });
});
