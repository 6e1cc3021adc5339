import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { TENANT_TAG } from '../../shared/platform/api-gateway-names';
import { CURSOR_SECRET_PK } from '../../shared/store/cursor-secret-repository';
import { KEY_NAME_ATTRIBUTES, KEY_PK_PATTERN } from '../../shared/store/keys-repository';
import type { TableId } from '../../shared/store/tables';
import { AUDIT_PK } from '../../shared/store/tenant-knowledge/tenant-knowledge-items';
import {
  WEBHOOK_ITEM_PK_PATTERNS,
  WEBHOOK_SECRET_PK_PATTERN,
} from '../../shared/store/webhooks/webhook-items';
import {
  type FunctionGrants,
  STATE_MACHINE_ACTIONS,
  type TableGrant,
  tableActions,
} from '../function-grants';
import type { ServiceFunction } from './service-function';

/** The API Gateway identifiers key administration works on. */
export interface ApiAdminTarget {
  tenant: string;
  restApiId: string;
  stageName: string;
  usagePlanId: string;
  /** The default usage plan's per-key limits (daily quota 0 = none), for keys created without their own. */
  defaultLimits?: { ratePerSecond: number; burst: number; dailyQuota: number };
}

/** The stack's resources a grant can point at; optional ones are wired by later parts of the stack. */
export interface GrantTargets {
  tables: Record<TableId, ITable>;
  /** The tables' customer-managed key, when the deployment uses one. */
  tableKey?: IKey;
  stateMachine?: IStateMachine;
  /**
   * The Express state machine of the same definition: a function that starts runs may start them
   * there too (SIS_EXPRESS_STATE_MACHINE_ARN). Stop and describe stay on Standard: Step Functions
   * does not support them for Express executions.
   */
  expressStateMachine?: IStateMachine;
  incidentQueue?: IQueue;
  /** Webhook dispatch: invoke the delivery function, schedule retries (webhook-delivery.ts grantDispatch). */
  webhookDispatch?: { grantDispatch(fn: ServiceFunction, access: 'invoke' | 'schedule'): void };
  apiAdmin?: ApiAdminTarget;
  /** The public feeds: their settings and the bucket of compiled sets (feed-refresh.ts). */
  feeds?: {
    environment: Record<string, string>;
    grant(fn: ServiceFunction, access: 'read' | 'readWrite'): void;
  };
}

/** The actions on the cursor-secret item: read it, and create it the first time (conditional put). */
export const CURSOR_SECRET_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem'] as const;

/** The webhook items of the sessions table: subscriptions read, delivery items written and updated. */
export const WEBHOOK_ITEM_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

export const WEBHOOK_SECRET_ACTIONS = {
  read: ['dynamodb:GetItem'],
  readWrite: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
} as const;

export const MISSING_GRANT_TARGET = 'sis:missing-grant-target';

/**
 * Until the workflow and incident-sync parts add the state machine and queue to the stack, a function
 * that needs one synthesises without that permission and variable; the warning keeps it visible (and
 * `cdk synth --strict` fails on it).
 */
function warnMissing(fn: ServiceFunction, what: string): void {
  Validations.of(fn).addWarning(
    MISSING_GRANT_TARGET,
    `${fn.functionName} is granted access to ${what}, but the stack does not provide one yet; the grant is skipped.`,
  );
}

/**
 * Turns one function's entry in FUNCTION_GRANTS into IAM statements scoped to exact resources, and
 * hands the function the environment variables naming them.
 */
export function applyFunctionGrants(
  fn: ServiceFunction,
  grants: FunctionGrants,
  targets: GrantTargets,
): void {
  for (const [tableId, grant] of Object.entries(grants.tables ?? {}) as [TableId, TableGrant | undefined][]) {
    if (!grant) continue;
    const table = targets.tables[tableId];
    // Held to its own partitions when the grant names them (LeadingKeys: the partition key of every item).
    const heldTo = (partitions: readonly string[] | undefined) =>
      partitions
        ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...partitions] } } }
        : {};
    fn.addToPolicy(
      new PolicyStatement({
        actions: tableActions(grant.access),
        resources: [table.tableArn],
        ...heldTo(grant.partitions),
      }),
    );
    if (grant.readPartitions?.length) {
      fn.addToPolicy(
        new PolicyStatement({
          actions: ['dynamodb:GetItem', 'dynamodb:Query'],
          resources: [table.tableArn],
          ...heldTo(grant.readPartitions),
        }),
      );
    }
    if (grant.indexes?.length) {
      fn.addToPolicy(
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: grant.indexes.map((index) => `${table.tableArn}/index/${index}`),
        }),
      );
    }
  }

  const tableGrants = Object.values(grants.tables ?? {}).filter((grant): grant is TableGrant =>
    Boolean(grant),
  );
  if (
    targets.tableKey &&
    (tableGrants.length ||
      grants.cursorSecret ||
      grants.auditAppend ||
      grants.keyNames ||
      grants.webhookItems ||
      grants.webhookSecrets)
  ) {
    // DynamoDB uses the key on the caller's behalf: reads need Decrypt, writes also GenerateDataKey
    // (creating the cursor secret and appending an audit record are writes).
    const writes =
      Boolean(grants.cursorSecret) ||
      Boolean(grants.auditAppend) ||
      Boolean(grants.webhookItems) ||
      grants.webhookSecrets === 'readWrite' ||
      tableGrants.some((grant) => grant.access !== 'read');
    fn.addToPolicy(
      new PolicyStatement({
        actions: [
          'kms:Decrypt',
          'kms:DescribeKey',
          ...(writes ? ['kms:Encrypt', 'kms:GenerateDataKey'] : []),
        ],
        resources: [targets.tableKey.keyArn],
        conditions: { StringLike: { 'kms:ViaService': 'dynamodb.*.amazonaws.com' } },
      }),
    );
  }

  if (grants.stateMachine?.length) {
    const stateMachine = targets.stateMachine;
    if (!stateMachine) warnMissing(fn, 'the investigation state machine');
    else {
      for (const action of grants.stateMachine) {
        if (action === 'start') stateMachine.grantStartExecution(fn.grantable);
        else stateMachine.grantExecution(fn.grantable, STATE_MACHINE_ACTIONS[action]);
      }
      if (grants.stateMachine.some((action) => action !== 'start'))
        acknowledgeExecutionWildcard(fn, stateMachine);
      fn.addEnvironment('SIS_STATE_MACHINE_ARN', stateMachine.stateMachineArn);
      const express = targets.expressStateMachine;
      if (express && grants.stateMachine.includes('start')) {
        express.grantStartExecution(fn.grantable);
        fn.addEnvironment('SIS_EXPRESS_STATE_MACHINE_ARN', express.stateMachineArn);
      }
    }
  }

  if (grants.incidentQueueSend) {
    const queue = targets.incidentQueue;
    if (!queue) warnMissing(fn, 'the incident queue');
    else {
      queue.grantSendMessages(fn.grantable);
      fn.addEnvironment('SIS_INCIDENT_QUEUE_URL', queue.queueUrl);
    }
  }

  if (grants.webhookDispatch) {
    const dispatch = targets.webhookDispatch;
    if (!dispatch) warnMissing(fn, 'the webhook delivery function');
    else dispatch.grantDispatch(fn, grants.webhookDispatch);
  }

  if (grants.webhookItems) {
    // Subscriptions and delivery logs only: never a session, its history or the tenant's knowledge.
    fn.addToPolicy(
      new PolicyStatement({
        actions: [...WEBHOOK_ITEM_ACTIONS],
        resources: [targets.tables.sessions.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...WEBHOOK_ITEM_PK_PATTERNS] } },
      }),
    );
  }

  if (grants.webhookSecrets) {
    // The webhooks' signing secrets only: not the key hashes or the cursor secret beside them.
    fn.addToPolicy(
      new PolicyStatement({
        actions: [...WEBHOOK_SECRET_ACTIONS[grants.webhookSecrets]],
        resources: [targets.tables.keys.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [WEBHOOK_SECRET_PK_PATTERN] } },
      }),
    );
  }

  if (grants.feeds) {
    const feeds = targets.feeds;
    if (!feeds) warnMissing(fn, 'the public feeds');
    else {
      for (const [key, value] of Object.entries(feeds.environment)) fn.addEnvironment(key, value);
      if (grants.feeds !== 'settings') feeds.grant(fn, grants.feeds);
    }
  }

  if (grants.cursorSecret) {
    // Only the item whose partition key is the cursor secret's: not the key hashes beside it.
    fn.addToPolicy(
      new PolicyStatement({
        actions: [...CURSOR_SECRET_ACTIONS],
        resources: [targets.tables.keys.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [CURSOR_SECRET_PK] } },
      }),
    );
  }

  if (grants.keyNames) {
    // Key records only, and of them only the key and the name: never the secret hashes.
    fn.addToPolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem'],
        resources: [targets.tables.keys.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [KEY_PK_PATTERN] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...KEY_NAME_ATTRIBUTES] },
          StringEqualsIfExists: { 'dynamodb:Select': 'SPECIFIC_ATTRIBUTES' },
        },
      }),
    );
  }

  if (grants.auditAppend) {
    // Only new items of the audit partition: not the key hashes beside it.
    fn.addToPolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [targets.tables.keys.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [AUDIT_PK] } },
      }),
    );
  }

  if (grants.apiKeyAdmin) {
    const api = targets.apiAdmin;
    if (!api) {
      warnMissing(fn, 'the REST API and usage plan');
      return;
    }
    for (const statement of apiKeyAdminStatements(Stack.of(fn), api, api.tenant)) fn.addToPolicy(statement);
    acknowledgeApiKeyAdminWildcards(fn);
    fn.addEnvironment('SIS_REST_API_ID', api.restApiId);
    fn.addEnvironment('SIS_STAGE_NAME', api.stageName);
    fn.addEnvironment('SIS_USAGE_PLAN_ID', api.usagePlanId);
    if (api.defaultLimits) {
      fn.addEnvironment('SIS_DEFAULT_RATE_PER_SECOND', String(api.defaultLimits.ratePerSecond));
      fn.addEnvironment('SIS_DEFAULT_BURST', String(api.defaultLimits.burst));
      if (api.defaultLimits.dailyQuota > 0) {
        fn.addEnvironment('SIS_DEFAULT_DAILY_QUOTA', String(api.defaultLimits.dailyQuota));
      }
    }
  }
}

function apiGatewayArn(stack: Stack, resourcePath: string): string {
  // API Gateway management ARNs have an empty account field: arn:aws:apigateway:<region>::/<path>
  return stack.formatArn({
    service: 'apigateway',
    account: '',
    resource: resourcePath,
    arnFormat: ArnFormat.NO_RESOURCE_NAME,
  });
}

export { TENANT_TAG };

/** The tags the usage-plan adapter sets when it creates a key or plan. */
const SERVICE_TAG_KEYS = [TENANT_TAG, 'sis:key_id'];

/**
 * Key administration mirrors every service key as an API Gateway API key in a usage plan (the
 * authorizer returns its value as `usageIdentifierKey`, so per-key throttling applies; keys with
 * their own limits get their own plan), and flushes the stage's authorizer cache so disable and
 * rotation act on the next request when caching is on.
 *
 * API key and usage plan IDs are generated at run time, so the resources are wildcards; tags narrow
 * them to this tenant: creation must tag the new key or plan with the tenant, and changes apply only
 * to keys and plans carrying it (usage-plan keys inherit their plan's tags).
 */
export function apiKeyAdminStatements(stack: Stack, api: ApiAdminTarget, tenant: string): PolicyStatement[] {
  const arn = (path: string) => apiGatewayArn(stack, path);
  const ownTenant = { [`aws:ResourceTag/${TENANT_TAG}`]: tenant };
  return [
    new PolicyStatement({
      actions: ['apigateway:POST'],
      resources: [arn('/apikeys'), arn('/usageplans')],
      conditions: { StringEquals: { [`aws:RequestTag/${TENANT_TAG}`]: tenant } },
    }),
    new PolicyStatement({
      // Tag-on-create is authorised as a tagging call.
      actions: ['apigateway:PUT'],
      resources: [arn('/tags/*')],
      conditions: { 'ForAllValues:StringEquals': { 'aws:TagKeys': SERVICE_TAG_KEYS } },
    }),
    new PolicyStatement({
      actions: ['apigateway:PATCH', 'apigateway:DELETE'],
      resources: [arn('/apikeys/*'), arn('/usageplans/*')],
      conditions: { StringEquals: ownTenant },
    }),
    new PolicyStatement({
      actions: ['apigateway:POST'],
      resources: [arn('/usageplans/*/keys')],
      conditions: { StringEquals: ownTenant },
    }),
    new PolicyStatement({
      actions: ['apigateway:DELETE'],
      resources: [arn(`/restapis/${api.restApiId}/stages/${api.stageName}/cache/authorizers`)],
    }),
  ];
}

/**
 * Execution ARNs end in the run ID, created at run time, so stop/describe grants name
 * `execution:<state machine name>:*`; the finding spells the name as CDK renders it from the ARN.
 */
function acknowledgeExecutionWildcard(fn: ServiceFunction, stateMachine: IStateMachine): void {
  const resolved: unknown = Stack.of(fn).resolve(stateMachine.stateMachineArn);
  const resource =
    typeof resolved === 'string'
      ? `${resolved.replace(':stateMachine:', ':execution:')}:*`
      : `${nagArnPrefix(Stack.of(fn), 'states')}:${nagPseudo(Stack.of(fn).account, 'AccountId')}:execution:{"Fn::Select":[6,{"Fn::Split":[":",${JSON.stringify(resolved)}]}]}:*`;
  Validations.of(fn.role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${resource}]`,
    reason:
      'Executions are named by run IDs created at run time; the grant covers executions of the investigation state machine only.',
  });
}

/**
 * How cdk-nag spells a pseudo parameter inside a finding ID: `<AWS::Region>` while the stack is
 * environment-agnostic, the literal once the deployment pins it (context `region`).
 */
export function nagPseudo(value: string, name: 'Partition' | 'Region' | 'AccountId'): string {
  return Token.isUnresolved(value) ? `<AWS::${name}>` : value;
}

function nagArnPrefix(stack: Stack, service: string): string {
  return `arn:${nagPseudo(stack.partition, 'Partition')}:${service}:${nagPseudo(stack.region, 'Region')}`;
}

function acknowledgeApiKeyAdminWildcards(fn: ServiceFunction): void {
  const finding = (path: string) =>
    `AwsSolutions-IAM5[Resource::${nagArnPrefix(Stack.of(fn), 'apigateway')}::${path}]`;
  const tenantScoped = `limited by a condition on the ${TENANT_TAG} tag to this tenant's keys and plans`;
  Validations.of(fn.role).acknowledge(
    {
      id: finding('/apikeys/*'),
      reason: `API Gateway key IDs are generated when a service key is created; ${tenantScoped}.`,
    },
    {
      id: finding('/usageplans/*'),
      reason: `Keys with their own limits get usage plans created at run time; ${tenantScoped}.`,
    },
    {
      id: finding('/usageplans/*/keys'),
      reason: `A key joins the default plan or its own run-time plan; ${tenantScoped}.`,
    },
    {
      id: finding('/tags/*'),
      reason:
        'Tag-on-create of a key or plan is authorised as tagging; only the service tag keys are allowed.',
    },
  );
}
