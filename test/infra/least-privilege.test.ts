import { beforeAll, describe, expect, it } from 'vitest';
import { FEED_NAMES } from '../../shared/domain/feeds/declarations';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../support/synth';

/**
 * Every permission in the synthesised tenant stack, read from the template itself (identity policies,
 * inline role policies, managed policy attachments, trust policies, resource policies), compared with
 * an allowlist kept HERE, independent of infra/function-grants.ts: a grant the stack adds without a
 * line below fails, and so does a principal (a new function, a new service role) without an entry.
 *
 * Resources are compared as rendered text: `{table/keys}` is the keys table's ARN, `{state-machine/
 * investigation.name}` the state machine's name cut out of its ARN, `<Region>` a pseudo parameter.
 */
const TENANT = 'test';

const READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const WRITE = [
  ...READ,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

interface Allowed {
  actions: readonly string[];
  resources: readonly string[];
  /** When given, the statement must carry exactly this (rendered) condition. */
  condition?: unknown;
}

const table = (id: string) => `{table/${id}}`;
const index = (id: string, name = 'gsi1') => `{table/${id}}/index/${name}`;
const apigateway = (path: string) => `arn:<Partition>:apigateway:<Region>::${path}`;
/**
 * The log group a function writes to: the tenant's one function log group, or its own for the
 * authorizers (infra/constructs/service-function.ts sharedLogGroup).
 */
const logGroupOf = (fn: string) =>
  `{log-group//aws/lambda/sis-${TENANT}-${fn.endsWith('authorizer') ? fn : 'functions'}}`;

const readTable = (id: string, withIndex = false): Allowed[] => [
  { actions: READ, resources: [table(id)] },
  ...(withIndex ? [{ actions: ['dynamodb:Query'], resources: [index(id)] }] : []),
];
const writeTable = (id: string, withIndex = false): Allowed[] => [
  { actions: WRITE, resources: [table(id)] },
  ...(withIndex ? [{ actions: ['dynamodb:Query'], resources: [index(id)] }] : []),
];

/**
 * The cursor secret is one item of the keys table: its readers may get it and create it when absent,
 * and IAM holds them to that item's partition key, never the key hashes beside it.
 */
const CURSOR_SECRET: Allowed[] = [
  {
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
    resources: [table('keys')],
    condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['SETTING#cursor-secret'] } },
  },
];

/**
 * Who started a session: a key's name, read under IAM's attribute condition from key records only,
 * so the function never sees a secret hash.
 */
const KEY_NAMES: Allowed[] = [
  {
    actions: ['dynamodb:GetItem'],
    resources: [table('keys')],
    condition: {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['KEY#*'] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'name'] },
      StringEqualsIfExists: { 'dynamodb:Select': 'SPECIFIC_ATTRIBUTES' },
    },
  },
];

/** Allowlist changes and feedback append their audit record: new items of the audit partition only. */
const AUDIT_APPEND: Allowed[] = [
  {
    actions: ['dynamodb:PutItem'],
    resources: [table('keys')],
    condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['AUDIT'] } },
  },
];

const tenantTag = { 'aws:ResourceTag/sis:tenant': TENANT };
const keyAdministration: Allowed[] = [
  ...writeTable('keys', true),
  {
    actions: ['apigateway:POST'],
    resources: [apigateway('/apikeys'), apigateway('/usageplans')],
    condition: { StringEquals: { 'aws:RequestTag/sis:tenant': TENANT } },
  },
  {
    actions: ['apigateway:PUT'],
    resources: [apigateway('/tags/*')],
    condition: { 'ForAllValues:StringEquals': { 'aws:TagKeys': ['sis:tenant', 'sis:key_id'] } },
  },
  {
    actions: ['apigateway:PATCH', 'apigateway:DELETE'],
    resources: [apigateway('/apikeys/*'), apigateway('/usageplans/*')],
    condition: { StringEquals: tenantTag },
  },
  {
    actions: ['apigateway:POST'],
    resources: [apigateway('/usageplans/*/keys')],
    condition: { StringEquals: tenantTag },
  },
  {
    actions: ['apigateway:DELETE'],
    resources: [apigateway('/restapis/{rest-api}/stages/prod/cache/authorizers')],
  },
];

/** The feeds' compiled sets: exactly one object per feed, no wildcard. */
const FEED_OBJECTS = FEED_NAMES.map((name) => `{bucket}/feeds/${name}.sisfeed.gz`);
const feedRefresh: Allowed[] = [
  ...writeTable('intel'),
  { actions: ['s3:GetObject', 's3:PutObject'], resources: FEED_OBJECTS },
];

const EXECUTIONS =
  'arn:<Partition>:states:<Region>:<AccountId>:execution:{state-machine/investigation.name}:*';
const QUEUE_SEND = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
const QUEUE_CONSUME = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];

/**
 * Function → what it may do beyond writing its own log group and X-Ray segments. Keyed by the
 * function's name without the `sis-<tenant>-` prefix; other principals by `<service>:<name>`.
 */
const FUNCTION_ALLOWLIST: Record<string, Allowed[]> = {
  health: [],
  'get-openapi-document': [],
  'get-plugin-openapi-document': [],
  'get-ai-plugin-manifest': [],
  'get-security-copilot-manifest': [],
  'get-plugin-logo': [],
  'get-terms-page': [],
  // One key read per request and the throttled last-use stamp: no Query, no writes of new items.
  authorizer: [{ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [table('keys')] }],
  'create-api-key': keyAdministration,
  'rotate-api-key': keyAdministration,
  'disable-api-key': keyAdministration,
  'list-api-keys': readTable('keys', true),
  'list-connectors': readTable('intel'),
  // The tenant's knowledge (docs/tenant-knowledge.md): its items in the sessions table, the audit append.
  'add-allowlist-entry': [...writeTable('sessions'), ...AUDIT_APPEND],
  'list-allowlist': readTable('sessions'),
  'remove-allowlist-entry': [...writeTable('sessions'), ...AUDIT_APPEND],
  'submit-session-feedback': [...writeTable('sessions'), ...AUDIT_APPEND],
  // The public feeds: their states in the intel table, their compiled sets in the feeds bucket.
  'list-feeds': readTable('intel'),
  'refresh-feeds': feedRefresh,
  'scheduled-feeds-refresh': feedRefresh,
  'start-investigation': [
    ...writeTable('sessions', true),
    // Both state machines of the one definition: the start chooses per run (workflow-type.ts).
    {
      actions: ['states:StartExecution'],
      resources: ['{state-machine/investigation}', '{state-machine/investigation-express}'],
    },
  ],
  'cancel-investigation': [
    ...writeTable('sessions'),
    { actions: ['states:StopExecution'], resources: [EXECUTIONS] },
  ],
  // The functions that issue or verify pagination cursors read the cursor secret's item, and nothing else does.
  'get-session-history': [...readTable('sessions'), ...CURSOR_SECRET],
  'get-investigation-report': readTable('sessions'),
  'get-investigation-stix': readTable('sessions'),
  'search-investigations': [...readTable('sessions'), ...CURSOR_SECRET],
  'list-sessions': [...readTable('sessions'), ...CURSOR_SECRET],
  'query-knowledge-graph': [...readTable('graph', true), ...CURSOR_SECRET],
  'list-incidents': [...readTable('incidents', true), ...CURSOR_SECRET],
  'ingest-incidents': [{ actions: QUEUE_SEND, resources: ['{queue/incidents}'] }],
  'step-mark-active': writeTable('sessions'),
  // The built-in tools read the graph and the incidents; only the connector tools' step touches the
  // intel table (cache, quota, circuit) and, when configured, the connectors' secret.
  // and the feeds tool reads the feeds' states and compiled sets (never writes them).
  'step-run-tool': [
    ...writeTable('sessions'),
    ...readTable('graph'),
    ...readTable('incidents'),
    ...readTable('intel'),
    { actions: ['s3:GetObject'], resources: FEED_OBJECTS },
  ],
  // The connector tools also read the looked-up entity's graph node for its TLP (issue #27: red stays in-house).
  'step-run-intel': [...writeTable('sessions'), ...writeTable('intel'), ...readTable('graph')],
  'step-assess': writeTable('sessions'),
  'step-analyst-turn': writeTable('sessions'),
  'step-persist': [...writeTable('sessions'), ...writeTable('graph')],
  'step-mark-failed': writeTable('sessions'),
  'workflow-status-change': writeTable('sessions'),
  // Lists open sessions on the sparse index, ends stale ones, after asking Step Functions about their run.
  'sweep-stale-sessions': [
    ...writeTable('sessions', true),
    { actions: ['states:DescribeExecution'], resources: [EXECUTIONS] },
  ],
  'incident-sync-consumer': [
    ...writeTable('incidents'),
    ...writeTable('graph'),
    { actions: QUEUE_CONSUME, resources: ['{queue/incidents}'] },
  ],
  'siem-pull': [...writeTable('incidents'), { actions: QUEUE_SEND, resources: ['{queue/incidents}'] }],
  // The web console: pages and the token check read no data; data routes as their plugin twins.
  'console-page': [],
  'console-asset': [],
  'console-config': [],
  'console-authorizer': [],
  'console-me': [],
  'console-list-sessions': [...readTable('sessions'), ...KEY_NAMES, ...CURSOR_SECRET],
  'console-start-investigation': [
    ...writeTable('sessions', true),
    // Both state machines of the one definition: the start chooses per run (workflow-type.ts).
    {
      actions: ['states:StartExecution'],
      resources: ['{state-machine/investigation}', '{state-machine/investigation-express}'],
    },
  ],
  // KEY_NAMES: the name of the key that started a session recorded before sessions stored it.
  'console-get-session-history': [...readTable('sessions'), ...KEY_NAMES, ...CURSOR_SECRET],
  'console-get-report': readTable('sessions'),
  'console-get-stix': readTable('sessions'),
  'console-cancel-investigation': [
    ...writeTable('sessions'),
    { actions: ['states:StopExecution'], resources: [EXECUTIONS] },
  ],
  'console-list-incidents': [...readTable('incidents', true), ...CURSOR_SECRET],
  'console-get-incident': readTable('incidents'),
  'console-query-graph': [...readTable('graph', true), ...CURSOR_SECRET],
  'console-list-keys': readTable('keys', true),
  'console-create-key': keyAdministration,
  'console-rotate-key': keyAdministration,
  'console-disable-key': keyAdministration,
  'console-list-audit': [...readTable('keys'), ...CURSOR_SECRET],
};

const STEP_FUNCTIONS = [
  'step-mark-active',
  'step-run-tool',
  'step-run-intel',
  'step-assess',
  'step-analyst-turn',
  'step-persist',
  'step-mark-failed',
].map((fn) => `{function/${fn}}`);

const SERVICE_ROLE_ALLOWLIST: Record<string, Allowed[]> = {
  'states:investigation': [
    {
      actions: ['lambda:InvokeFunction'],
      resources: STEP_FUNCTIONS,
    },
  ],
  'scheduler:scheduled-feeds-refresh': [
    {
      actions: ['lambda:InvokeFunction'],
      resources: ['{function/scheduled-feeds-refresh}', '{function/scheduled-feeds-refresh}:*'],
    },
  ],
  'states:investigation-express': [
    {
      actions: ['lambda:InvokeFunction'],
      resources: STEP_FUNCTIONS,
    },
  ],
  'scheduler:siem-pull': [
    { actions: ['lambda:InvokeFunction'], resources: ['{function/siem-pull}', '{function/siem-pull}:*'] },
  ],
};

/** Actions AWS offers no resource-level permission for, and who may have them on `*`. */
const STAR_RESOURCE_ALLOWLIST: {
  actions: readonly string[];
  principals: (p: string) => boolean;
  why: string;
}[] = [
  {
    actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
    principals: () => true,
    why: 'X-Ray segment upload has no resource-level permissions',
  },
  {
    actions: ['xray:GetSamplingRules', 'xray:GetSamplingTargets'],
    principals: (p) => p.startsWith('states:'),
    why: 'Step Functions tracing reads sampling rules; no resource-level permissions',
  },
  {
    actions: [
      'logs:CreateLogDelivery',
      'logs:DeleteLogDelivery',
      'logs:DescribeLogGroups',
      'logs:DescribeResourcePolicies',
      'logs:GetLogDelivery',
      'logs:ListLogDeliveries',
      'logs:PutResourcePolicy',
      'logs:UpdateLogDelivery',
    ],
    principals: (p) => p.startsWith('states:'),
    why: 'Step Functions execution logging (vended logs) requires these on * (AWS documentation)',
  },
];

// ---------- rendering the template ----------

interface Statement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: unknown;
  Resource?: unknown;
  NotResource?: unknown;
  Principal?: unknown;
  Condition?: unknown;
}

const PSEUDO: Record<string, string> = {
  'AWS::Partition': '<Partition>',
  'AWS::Region': '<Region>',
  'AWS::AccountId': '<AccountId>',
  'AWS::URLSuffix': '<URLSuffix>',
};

function stripTenant(name: unknown): string {
  return String(name).replace(new RegExp(`^sis-${TENANT}-`), '');
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
    } else if (r.Type === 'AWS::Scheduler::Schedule') {
      const target = p.Target as { RoleArn?: unknown; Arn?: unknown };
      const role = roleOf(target.RoleArn);
      const invoked = String(render(t, target.Arn)).replace(/^\{function\/(.*)\}$/, '$1');
      if (role) owners.set(role, `scheduler:${invoked}`);
    }
  }
  for (const [id, r] of Object.entries(t.Resources)) {
    if (r.Type === 'AWS::IAM::Role' && !owners.has(id)) owners.set(id, `role:${id}`);
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

  it('only start, cancel and the sweeper touch executions, only key administration touches API Gateway', () => {
    const holders = (prefix: string) =>
      [...new Set(grants.filter((g) => g.action.startsWith(prefix)).map((g) => g.principal))].sort();
    expect(holders('states:StartExecution')).toEqual(['console-start-investigation', 'start-investigation']);
    expect(holders('states:StopExecution')).toEqual(['cancel-investigation', 'console-cancel-investigation']);
    expect(holders('states:DescribeExecution')).toEqual(['sweep-stale-sessions']);
    expect(holders('states:')).toEqual([
      'cancel-investigation',
      'console-cancel-investigation',
      'console-start-investigation',
      'start-investigation',
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
