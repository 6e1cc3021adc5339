import { ROUTES } from '../../../shared/api/routes';
import { FEED_NAMES } from '../../../shared/domain/feeds/declarations';

/**
 * The allowlist least-privilege.test.ts compares the synthesised template with: every action on every
 * resource each principal may hold, kept here, independent of infra/function-grants.ts.
 */

export const TENANT = 'test';

const READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const WRITE = [
  ...READ,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

export interface Allowed {
  actions: readonly string[];
  resources: readonly string[];
  /** When given, the statement must carry exactly this (rendered) condition. */
  condition?: unknown;
}

export const table = (id: string) => `{table/${id}}`;
export const index = (id: string, name = 'gsi1') => `{table/${id}}/index/${name}`;
export const apigateway = (path: string) => `arn:<Partition>:apigateway:<Region>::${path}`;
/**
 * The log group a function writes to: the tenant's one function log group, or its own for the
 * authorizers (infra/constructs/service-function.ts sharedLogGroup).
 */
export const logGroupOf = (fn: string) =>
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
export const CURSOR_SECRET: Allowed[] = [
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

/** The webhooks' signing secrets: their own partitions of the keys table, never a key hash. */
const webhookSecrets = (actions: string[]): Allowed[] => [
  {
    actions,
    resources: [table('keys')],
    condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WEBHOOKSECRET#*'] } },
  },
];
const WEBHOOK_SECRET_WRITE = webhookSecrets(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem']);

/** Subscriptions and delivery logs of the sessions table, for functions that touch no session. */
const WEBHOOK_ITEMS: Allowed[] = [
  {
    actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    resources: [table('sessions')],
    condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WEBHOOKS', 'WEBHOOK#*'] } },
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

/**
 * The feeds' compiled sets: each feed's folder of versioned sets and its one legacy object (states
 * written before sets were versioned), no wider wildcard. The refresh writes versions and deletes
 * the set it replaced (a legacy one included); it never reads a set.
 */
const FEED_VERSIONS = FEED_NAMES.map((name) => `{bucket}/feeds/${name}/*`);
const FEED_LEGACY = FEED_NAMES.map((name) => `{bucket}/feeds/${name}.sisfeed.gz`);
const FEED_OBJECTS = [...FEED_LEGACY, ...FEED_VERSIONS];
const feedRefresh: Allowed[] = [
  ...writeTable('intel'),
  { actions: ['s3:PutObject', 's3:DeleteObject'], resources: FEED_VERSIONS },
  { actions: ['s3:DeleteObject'], resources: FEED_LEGACY },
];

const EXECUTIONS =
  'arn:<Partition>:states:<Region>:<AccountId>:execution:{state-machine/investigation.name}:*';
const QUEUE_SEND = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
/**
 * The functions that end a session (or enrich an incident) publish its webhook event: its first
 * attempts are asynchronous invokes of the delivery function, and nothing else.
 */
const WEBHOOK_DISPATCH: Allowed[] = [
  {
    actions: ['lambda:InvokeFunction'],
    resources: [`arn:<Partition>:lambda:<Region>:<AccountId>:function:sis-${TENANT}-deliver-webhook`],
  },
];
/** The delivery function schedules retries: in the webhooks' group, with the scheduler role only. */
const WEBHOOK_RETRY_SCHEDULE: Allowed[] = [
  {
    actions: ['scheduler:CreateSchedule'],
    resources: [`arn:<Partition>:scheduler:<Region>:<AccountId>:schedule/sis-${TENANT}-webhooks/*`],
  },
  {
    actions: ['iam:PassRole'],
    resources: ['{role/scheduler:deliver-webhook}'],
    condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
  },
];
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
export const FUNCTION_ALLOWLIST: Record<string, Allowed[]> = {
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
    ...WEBHOOK_DISPATCH,
  ],
  // The functions that issue or verify pagination cursors read the cursor secret's item, and nothing else does.
  'get-session-history': [...readTable('sessions'), ...CURSOR_SECRET],
  'get-investigation-report': readTable('sessions'),
  'get-investigation-stix': readTable('sessions'),
  'search-investigations': [...readTable('sessions'), ...CURSOR_SECRET],
  'list-sessions': [...readTable('sessions'), ...CURSOR_SECRET],
  'query-knowledge-graph': [...readTable('graph', true), ...readTable('sessions'), ...CURSOR_SECRET],
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
  'step-persist': [...writeTable('sessions'), ...writeTable('graph'), ...WEBHOOK_DISPATCH],
  'step-mark-failed': [...writeTable('sessions'), ...WEBHOOK_DISPATCH],
  'workflow-status-change': [...writeTable('sessions'), ...WEBHOOK_DISPATCH],
  // Lists open sessions on the sparse index, ends stale ones, after asking Step Functions about their run.
  'sweep-stale-sessions': [
    ...writeTable('sessions', true),
    { actions: ['states:DescribeExecution'], resources: [EXECUTIONS] },
    ...WEBHOOK_DISPATCH,
  ],
  // Also starts the auto-investigations of arriving incidents and schedules their follow-ups.
  'incident-sync-consumer': [
    ...writeTable('incidents'),
    ...writeTable('graph'),
    ...writeTable('sessions', true),
    {
      actions: ['states:StartExecution'],
      resources: ['{state-machine/investigation}', '{state-machine/investigation-express}'],
    },
    { actions: QUEUE_CONSUME, resources: ['{queue/incidents}'] },
    { actions: QUEUE_SEND, resources: ['{queue/incidents}'] },
    ...WEBHOOK_DISPATCH,
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
    ...WEBHOOK_DISPATCH,
  ],
  'console-list-incidents': [...readTable('incidents', true), ...CURSOR_SECRET],
  'console-get-incident': readTable('incidents'),
  'console-query-graph': [...readTable('graph', true), ...CURSOR_SECRET],
  'console-list-keys': readTable('keys', true),
  'console-create-key': keyAdministration,
  'console-rotate-key': keyAdministration,
  'console-disable-key': keyAdministration,
  'console-list-audit': [...readTable('keys'), ...CURSOR_SECRET],
  // Batches: one start per entity, as start-investigation; the read is the batch and its sessions.
  'start-investigation-batch': [
    ...writeTable('sessions', true),
    {
      actions: ['states:StartExecution'],
      resources: ['{state-machine/investigation}', '{state-machine/investigation-express}'],
    },
  ],
  // The MCP endpoint: the five tools' REST twins together (start, report, graph, incidents, search).
  mcp: [
    ...writeTable('sessions', true),
    ...readTable('graph', true),
    ...readTable('incidents', true),
    ...CURSOR_SECRET,
    {
      actions: ['states:StartExecution'],
      resources: ['{state-machine/investigation}', '{state-machine/investigation-express}'],
    },
  ],
  'get-investigation-batch': readTable('sessions'),
  'get-mcp-manifest': [],
  // Webhooks (docs/soar.md "Webhooks"): subscriptions in the sessions table, secrets in their own
  // partitions of the keys table; the delivery function touches only webhook items and schedules retries.
  // Each change appends its audit record (a 410's disable too).
  'create-webhook': [...writeTable('sessions'), ...WEBHOOK_SECRET_WRITE, ...AUDIT_APPEND],
  'list-webhooks': readTable('sessions'),
  'remove-webhook': [...writeTable('sessions'), ...WEBHOOK_SECRET_WRITE, ...AUDIT_APPEND],
  'rotate-webhook-secret': [...writeTable('sessions'), ...WEBHOOK_SECRET_WRITE, ...AUDIT_APPEND],
  'list-webhook-deliveries': readTable('sessions'),
  'deliver-webhook': [
    ...WEBHOOK_ITEMS,
    ...webhookSecrets(['dynamodb:GetItem']),
    ...WEBHOOK_RETRY_SCHEDULE,
    // Its asynchronous invocations Lambda gave up on go to the alarm topic (on-failure destination).
    { actions: ['sns:Publish'], resources: ['{topic/alarms}'] },
    ...AUDIT_APPEND,
  ],
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

export const SERVICE_ROLE_ALLOWLIST: Record<string, Allowed[]> = {
  // API Gateway's integrations invoke the functions of the route table, and no other.
  'apigateway:routes': [
    {
      actions: ['lambda:InvokeFunction'],
      resources: [...new Set(ROUTES.map((route) => `{function/${route.functionName}}`))],
    },
  ],
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
  // The webhooks' one-shot retry schedules (created at run time) run with this role.
  'scheduler:deliver-webhook': [
    {
      actions: ['lambda:InvokeFunction'],
      resources: ['{function/deliver-webhook}', '{function/deliver-webhook}:*'],
    },
  ],
};

/** Actions AWS offers no resource-level permission for, and who may have them on `*`. */
export const STAR_RESOURCE_ALLOWLIST: {
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

export interface Statement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: unknown;
  Resource?: unknown;
  NotResource?: unknown;
  Principal?: unknown;
  Condition?: unknown;
}
