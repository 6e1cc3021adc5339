import { SESSION_PK_PATTERN } from '../shared/store/sessions/keys';
import type { TableId } from '../shared/store/tables';
import {
  ALLOWLIST_PK,
  CRITICAL_ASSETS_PK,
  DO_NOT_SHARE_PK,
  FEEDBACK_PK_PATTERN,
} from '../shared/store/tenant-knowledge/tenant-knowledge-items';

/**
 * What each function may touch, keyed by the route table's `functionName` (plus the authorizer and
 * workflow steps). The stack turns an entry into IAM statements and into the environment variables
 * the function needs, so a permission and the variable that uses it cannot drift apart.
 *
 * A function without an entry gets no grant at all: a new route works only once someone has decided,
 * here, what it may read and write.
 */

/**
 * - read:       GetItem, BatchGetItem, Query (never Scan: every read path is a key or index query).
 * - readUpdate: GetItem and UpdateItem only (the authorizer: one key read, the throttled
 *               `last_used_at` stamp).
 * - readWrite:  read plus PutItem, UpdateItem, DeleteItem, BatchWriteItem, ConditionCheckItem.
 */
export type TableAccess = 'read' | 'readUpdate' | 'readWrite';

export interface TableGrant {
  access: TableAccess;
  /** Global secondary indexes the function queries; each is granted Query only. */
  indexes?: readonly string[];
  /**
   * The partition keys (IAM patterns) `access` is held to by `dynamodb:LeadingKeys`; without it the
   * whole table. The store spells them (shared/store): a function writes only its own items.
   */
  partitions?: readonly string[];
  /** Further partitions the function may only read (GetItem, Query): e.g. the session it reviews. */
  readPartitions?: readonly string[];
}

export type StateMachineAction = 'start' | 'stop' | 'describe';

export interface FunctionGrants {
  tables?: Partial<Record<TableId, TableGrant>>;
  /** Step Functions actions on the investigation state machine and its executions. */
  stateMachine?: readonly StateMachineAction[];
  /** May send normalised incidents to the incident queue. */
  incidentQueueSend?: boolean;
  /**
   * May create, update and delete API Gateway keys and usage plans of this tenant, attach keys to plans
   * and flush the stage's authorizer cache. Such functions also receive SIS_REST_API_ID, SIS_STAGE_NAME,
   * SIS_USAGE_PLAN_ID and the default plan's limits (SIS_DEFAULT_RATE_PER_SECOND, SIS_DEFAULT_BURST,
   * SIS_DEFAULT_DAILY_QUOTA when there is a quota).
   */
  apiKeyAdmin?: boolean;
  /**
   * Issues or verifies pagination cursors: may read, and create when absent, the one cursor-secret
   * item of the keys table (GetItem and PutItem restricted to its partition key by
   * `dynamodb:LeadingKeys`; shared/store/cursor-secret-repository.ts). Read lazily, once per cold start.
   */
  cursorSecret?: boolean;
  /**
   * Reads API keys' display names (who started a session): GetItem on the keys table held by IAM to
   * the key records' partitions (`dynamodb:LeadingKeys` KEY#*) and to their key and `name`
   * attributes (`dynamodb:Attributes`), so the function can never read a secret hash
   * (shared/store/keys-repository.ts nameOf).
   */
  keyNames?: boolean;
  /**
   * Appends records to the admin audit list: PutItem on the keys table restricted to the audit
   * partition by `dynamodb:LeadingKeys` (the tenant-knowledge changes, written in one transaction
   * with the change they record; shared/store/tenant-knowledge/tenant-knowledge-repository.ts).
   */
  auditAppend?: boolean;
  /**
   * The public feeds (docs/feeds.md): `read` the compiled sets in the feeds bucket, `readWrite` write
   * each new version and delete the one it replaced (the refresh; infra/constructs/feed-refresh.ts). Such functions receive SIS_FEEDS_BUCKET and every SIS_FEED_<NAME>_*
   * setting; the feeds' states are in the intel table (granted under `tables`).
   */
  feeds?: 'read' | 'readWrite' | 'settings';
  /**
   * Webhook attempts (docs/soar.md "Webhooks"; infra/constructs/webhook-delivery.ts grantDispatch).
   * `invoke`: publishes events, whose first attempts are asynchronous invokes of the delivery
   * function (lambda:InvokeFunction on it only). `schedule`: schedules retries, one-shot schedules in
   * the webhooks' schedule group only (scheduler:CreateSchedule), run with the scheduler role it may
   * pass to EventBridge Scheduler only. Both receive SIS_WEBHOOK_FUNCTION_ARN; `schedule` also
   * SIS_WEBHOOK_SCHEDULE_GROUP and SIS_WEBHOOK_SCHEDULER_ROLE_ARN. Publishing also reads the
   * subscriptions and writes the delivery items of the sessions table: granted by the function's
   * sessions grant, or by `webhookItems` when it has none.
   */
  webhookDispatch?: 'invoke' | 'schedule';
  /**
   * The webhook items of the sessions table and no other: read, put and update held by IAM to the
   * subscriptions' and delivery logs' partitions (`dynamodb:LeadingKeys` WEBHOOKS, WEBHOOK#*;
   * shared/store/webhooks/webhook-items.ts), for functions that touch no session.
   */
  webhookItems?: boolean;
  /**
   * The webhooks' signing secrets in the keys table, held by `dynamodb:LeadingKeys` to their
   * WEBHOOKSECRET#* partitions: `read` (GetItem: the delivery function signs), `readWrite` (also put
   * and delete: creation, rotation, removal).
   */
  webhookSecrets?: 'read' | 'readWrite';
}

const feedAdmin: FunctionGrants = { tables: { intel: { access: 'readWrite' } }, feeds: 'readWrite' };
const feedList: FunctionGrants = { tables: { intel: { access: 'read' } }, feeds: 'settings' };

/**
 * Allowlist, "do not share" and critical-asset changes (one function serves the three): those
 * partitions of the sessions table, and the audit partition.
 */
const allowlistWrite: FunctionGrants = {
  tables: {
    sessions: { access: 'readWrite', partitions: [ALLOWLIST_PK, DO_NOT_SHARE_PK, CRITICAL_ASSETS_PK] },
  },
  auditAppend: true,
};

const keyAdmin: FunctionGrants = {
  tables: { keys: { access: 'readWrite', indexes: ['gsi1'] } },
  apiKeyAdmin: true,
};

export const FUNCTION_GRANTS: Readonly<Record<string, FunctionGrants>> = {
  // Public documents are built from code at cold start and read no data.
  health: {},
  'get-openapi-document': {},
  'get-plugin-openapi-document': {},
  'get-ai-plugin-manifest': {},
  'get-security-copilot-manifest': {},
  'get-plugin-logo': {},
  'get-terms-page': {},
  authorizer: { tables: { keys: { access: 'readUpdate' } } },
  'create-api-key': keyAdmin,
  'rotate-api-key': keyAdmin,
  'disable-api-key': keyAdmin,
  'list-api-keys': { tables: { keys: { access: 'read', indexes: ['gsi1'] } } },
  'list-connectors': { tables: { intel: { access: 'read' } } },
  // The tenant's knowledge (docs/tenant-knowledge.md): allowlist and feedback items in the sessions
  // table; each change appends its audit record (the feedback reads the session's META too). Each
  // function also serves the console twin of its route.
  'add-allowlist-entry': allowlistWrite,
  'list-allowlist': {
    tables: {
      sessions: { access: 'read', partitions: [ALLOWLIST_PK, DO_NOT_SHARE_PK, CRITICAL_ASSETS_PK] },
    },
  },
  'remove-allowlist-entry': allowlistWrite,
  'submit-session-feedback': {
    tables: {
      sessions: {
        access: 'readWrite',
        partitions: [FEEDBACK_PK_PATTERN],
        readPartitions: [SESSION_PK_PATTERN],
      },
    },
    auditAppend: true,
  },
  'list-feeds': feedList,
  'refresh-feeds': feedAdmin,
  // The scheduled refresh (infra/constructs/feed-refresh.ts).
  'scheduled-feeds-refresh': feedAdmin,
  // The session, its first history and the search postings; a synchronous start waits by reading
  // the session (DynamoDB), not the execution, so it needs no DescribeExecution.
  // gsi1: the caller's running sessions (open markers), for the running-investigations cap.
  'start-investigation': {
    tables: { sessions: { access: 'readWrite', indexes: ['gsi1'] } },
    stateMachine: ['start'],
  },
  'get-session-history': { tables: { sessions: { access: 'read' } }, cursorSecret: true },
  'get-investigation-report': { tables: { sessions: { access: 'read' } } },
  'get-investigation-stix': { tables: { sessions: { access: 'read' } } },
  'cancel-investigation': {
    tables: { sessions: { access: 'readWrite' } },
    stateMachine: ['stop'],
    webhookDispatch: 'invoke',
  },
  // The "do not share" marks (sessions table, that partition only): withheld from API keys.
  'query-knowledge-graph': {
    tables: {
      graph: { access: 'read', indexes: ['gsi1'] },
      sessions: { access: 'read', partitions: [DO_NOT_SHARE_PK] },
    },
    cursorSecret: true,
  },
  'list-incidents': { tables: { incidents: { access: 'read', indexes: ['gsi1'] } }, cursorSecret: true },
  'ingest-incidents': { incidentQueueSend: true },
  'search-investigations': { tables: { sessions: { access: 'read' } }, cursorSecret: true },
  'list-sessions': { tables: { sessions: { access: 'read' } }, cursorSecret: true },
  // The web console (docs/console.md): the shell, assets and settings read no data; the console
  // authorizer verifies ID tokens against the issuer's public keys and reads no table.
  'console-page': {},
  'console-asset': {},
  'console-config': {},
  'console-authorizer': {},
  'console-me': {},
  'console-list-sessions': { tables: { sessions: { access: 'read' } }, keyNames: true, cursorSecret: true },
  'console-start-investigation': {
    tables: { sessions: { access: 'readWrite', indexes: ['gsi1'] } },
    stateMachine: ['start'],
  },
  // keyNames: the name of the key that started a session recorded before sessions stored it.
  'console-get-session-history': {
    tables: { sessions: { access: 'read' } },
    keyNames: true,
    cursorSecret: true,
  },
  'console-get-report': { tables: { sessions: { access: 'read' } } },
  'console-get-stix': { tables: { sessions: { access: 'read' } } },
  'console-cancel-investigation': {
    tables: { sessions: { access: 'readWrite' } },
    stateMachine: ['stop'],
    webhookDispatch: 'invoke',
  },
  'console-list-incidents': {
    tables: { incidents: { access: 'read', indexes: ['gsi1'] } },
    cursorSecret: true,
  },
  'console-get-incident': { tables: { incidents: { access: 'read' } } },
  'console-query-graph': { tables: { graph: { access: 'read', indexes: ['gsi1'] } }, cursorSecret: true },
  'console-list-keys': { tables: { keys: { access: 'read', indexes: ['gsi1'] } } },
  'console-create-key': keyAdmin,
  'console-rotate-key': keyAdmin,
  'console-disable-key': keyAdmin,
  'console-list-audit': { tables: { keys: { access: 'read' } }, cursorSecret: true },
  // Incident sync (infra/constructs/incident-sync.ts): the consumer upserts incidents and writes the
  // graph (BatchGetItem + conditional puts in transactions); the pull keeps its watermark in the
  // incidents table and enqueues. Reading the connectors' secrets is granted by the construct.
  // Incidents investigated as they arrive (docs/soar.md): it starts their entities' investigations
  // as the system principal (sessions, its running count on gsi1, the state machine) and schedules
  // follow-ups on its own queue.
  'incident-sync-consumer': {
    tables: {
      incidents: { access: 'readWrite' },
      graph: { access: 'readWrite' },
      sessions: { access: 'readWrite', indexes: ['gsi1'] },
    },
    stateMachine: ['start'],
    incidentQueueSend: true,
    // and publishes `incident.enriched` once every entity's session has ended.
    webhookDispatch: 'invoke',
  },
  'siem-pull': { tables: { incidents: { access: 'readWrite' } }, incidentQueueSend: true },
  // Investigation workflow steps (infra/workflow/definition.ts) and the status-change write-back.
  // Plans the `feeds` tool when a feed is enabled (the feeds' settings, no data).
  'step-mark-active': { tables: { sessions: { access: 'readWrite' } }, feeds: 'settings' },
  // The built-in tools read the graph and the incidents (and the offline data beside the bundle), and
  // the `feeds` tool the feeds' states and compiled sets.
  // prior_investigations reads the allowlist and feedback items of the sessions table.
  'step-run-tool': {
    tables: {
      sessions: { access: 'readWrite' },
      graph: { access: 'read' },
      incidents: { access: 'read' },
      intel: { access: 'read' },
    },
    feeds: 'read',
  },
  // The connector tools: the intel table (cache, quota, circuit) and, when the deployment names one,
  // the connectors' secret (granted by the stack: infra/settings.ts intelSecretArn). No incidents
  // table; of the graph only reads, for the looked-up entity's TLP (issue #27).
  'step-run-intel': {
    tables: {
      sessions: { access: 'readWrite' },
      intel: { access: 'readWrite' },
      // The looked-up entity's node, for its TLP (an earlier red investigation keeps it in-house).
      graph: { access: 'read' },
    },
  },
  'step-assess': { tables: { sessions: { access: 'readWrite' } } },
  // Bedrock analyst mode: the conversation state and each turn's history; the model grant is added
  // by the workflow construct from the deployment's analyst settings (exactly one model ARN).
  'step-analyst-turn': { tables: { sessions: { access: 'readWrite' } } },
  // The steps and paths that end a session publish its webhook event (webhookDispatch).
  'step-persist': {
    tables: { sessions: { access: 'readWrite' }, graph: { access: 'readWrite' } },
    webhookDispatch: 'invoke',
  },
  'step-mark-failed': { tables: { sessions: { access: 'readWrite' } }, webhookDispatch: 'invoke' },
  'workflow-status-change': { tables: { sessions: { access: 'readWrite' } }, webhookDispatch: 'invoke' },
  // Lists open sessions on the sparse gsi1 (Query, then their META with BatchGetItem; deletes open
  // markers of ended sessions), ends stale ones like the status-change path does, after
  // DescribeExecution on their run.
  'sweep-stale-sessions': {
    tables: { sessions: { access: 'readWrite', indexes: ['gsi1'] } },
    stateMachine: ['describe'],
    webhookDispatch: 'invoke',
  },
  // Batches (docs/soar.md): one start per entity (as start-investigation) and the batch item; the
  // read is the batch item and its sessions' META (BatchGetItem).
  'start-investigation-batch': {
    tables: { sessions: { access: 'readWrite', indexes: ['gsi1'] } },
    stateMachine: ['start'],
  },
  'get-investigation-batch': { tables: { sessions: { access: 'read' } } },
  // The MCP endpoint (docs/mcp.md) runs the five tools' REST twins: start-investigation's grants,
  // get-investigation-report's, query-knowledge-graph's, list-incidents' and search-investigations'.
  mcp: {
    tables: {
      sessions: { access: 'readWrite', indexes: ['gsi1'] },
      graph: { access: 'read', indexes: ['gsi1'] },
      incidents: { access: 'read', indexes: ['gsi1'] },
    },
    stateMachine: ['start'],
    cursorSecret: true,
  },
  // Its Security Copilot manifest is built from code at cold start and reads no data.
  'get-mcp-manifest': {},
  // Webhooks (docs/soar.md "Webhooks"): subscriptions and the delivery log in the sessions table, the
  // signing secrets in the keys table (their WEBHOOKSECRET#* partitions only). Each function also
  // serves the console twin of its route.
  'create-webhook': {
    tables: { sessions: { access: 'readWrite' } },
    webhookSecrets: 'readWrite',
    auditAppend: true,
  },
  'list-webhooks': { tables: { sessions: { access: 'read' } } },
  'remove-webhook': {
    tables: { sessions: { access: 'readWrite' } },
    webhookSecrets: 'readWrite',
    auditAppend: true,
  },
  'rotate-webhook-secret': {
    tables: { sessions: { access: 'readWrite' } },
    webhookSecrets: 'readWrite',
    auditAppend: true,
  },
  'list-webhook-deliveries': { tables: { sessions: { access: 'read' } } },
  // The delivery function (infra/constructs/webhook-delivery.ts): reads the subscription and signs
  // with its secret, claims and records attempts, disables on 410, schedules retries.
  'deliver-webhook': {
    webhookItems: true,
    webhookSecrets: 'read',
    webhookDispatch: 'schedule',
    auditAppend: true,
  },
};

export const NO_GRANTS: FunctionGrants = Object.freeze({});

export function grantsFor(
  functionName: string,
  grants: Readonly<Record<string, FunctionGrants>> = FUNCTION_GRANTS,
): FunctionGrants {
  return Object.hasOwn(grants, functionName) ? (grants[functionName] ?? NO_GRANTS) : NO_GRANTS;
}

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
] as const;

export function tableActions(access: TableAccess): string[] {
  switch (access) {
    case 'read':
      return [...READ_ACTIONS];
    case 'readUpdate':
      return ['dynamodb:GetItem', 'dynamodb:UpdateItem'];
    case 'readWrite':
      return [...READ_ACTIONS, ...WRITE_ACTIONS];
  }
}

export const STATE_MACHINE_ACTIONS: Record<StateMachineAction, string> = {
  start: 'states:StartExecution',
  stop: 'states:StopExecution',
  describe: 'states:DescribeExecution',
};
