import type { Config } from '../config';

/**
 * Every table is declared once here; the CDK stack and the local runtime both create tables from
 * these definitions, so the key schema cannot drift between AWS and local.
 *
 * Tables are split by who may read them, so that grants stay least-privilege: only the authorizer
 * and key admin read `keys` (secret hashes live there), the graph function reads only `graph`.
 *
 * - keys:      API keys (pk KEY#<keyId>), admin audit records (pk AUDIT), the pagination-cursor
 *              secret (pk SETTING#cursor-secret: the functions that page may reach only that item).
 *              gsi1: all keys by creation time (gsi1pk KEYS).
 * - sessions:  session metadata and history (pk SESSION#<id>), idempotency records, search index
 *              terms (pk TERM#<ownerKeyId>#<term>) and running sessions (pk SEARCHOPEN#<ownerKeyId>).
 *              gsi1 (sparse): sessions not yet terminal (gsi1pk OPEN), so the sweeper and the runtime
 *              find sessions left open without a Scan. The entry is carried by a per-session open
 *              marker (sk OPEN), not META, so a status transaction writes no index entry; the marker
 *              is deleted when the session ends. Sessions created before it carry gsi1pk on META.
 *              Also webhook deliveries written with a session's end and not yet claimed (gsi1pk
 *              OUTBOX), which the sweeper sends again when their first send was lost.
 * - graph:     one partition per entity (pk ENTITY#<type>#<value>): node item + one item per edge.
 *              gsi1: entity types by bare value (gsi1pk VALUE#<value>), carried by a value item beside
 *              the node (sk VALUE) and written once, so the node's frequent rewrites write no index.
 * - incidents: normalised incidents (pk INCIDENT#<id>), connector watermarks.
 *              gsi1: incidents by severity, newest first (gsi1pk SEVERITY#<sev>, gsi1sk <created_at>#<id>).
 * - intel:     threat-intelligence connector state (shared/store/intel-repository.ts): cached answers
 *              (pk CACHE#<connector>#<type>#<value>, TTL per connector), daily quota counters
 *              (pk QUOTA#<connector>, sk <UTC day>, TTL 2 days), circuit breakers (pk CIRCUIT#<connector>).
 *              Its own table so only the run-tool step and the connectors admin route are granted it.
 */
export type TableId = 'keys' | 'sessions' | 'graph' | 'incidents' | 'intel';

export interface GlobalIndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

export interface TableDefinition {
  id: TableId;
  /** Suffix of the physical name: `sis-<tenant>-<suffix>`. */
  suffix: string;
  configKey:
    | 'SIS_KEYS_TABLE'
    | 'SIS_SESSIONS_TABLE'
    | 'SIS_GRAPH_TABLE'
    | 'SIS_INCIDENTS_TABLE'
    | 'SIS_INTEL_TABLE';
  partitionKey: 'pk';
  sortKey: 'sk';
  globalIndexes: GlobalIndexDefinition[];
  /** Epoch-seconds attribute DynamoDB TTL deletes items by. */
  ttlAttribute: 'expires_at_epoch';
}

export const GSI1: GlobalIndexDefinition = { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' };

const common = { partitionKey: 'pk', sortKey: 'sk', ttlAttribute: 'expires_at_epoch' } as const;

export const TABLES: Record<TableId, TableDefinition> = {
  keys: { id: 'keys', suffix: 'keys', configKey: 'SIS_KEYS_TABLE', globalIndexes: [GSI1], ...common },
  sessions: {
    id: 'sessions',
    suffix: 'sessions',
    configKey: 'SIS_SESSIONS_TABLE',
    globalIndexes: [GSI1],
    ...common,
  },
  graph: { id: 'graph', suffix: 'graph', configKey: 'SIS_GRAPH_TABLE', globalIndexes: [GSI1], ...common },
  incidents: {
    id: 'incidents',
    suffix: 'incidents',
    configKey: 'SIS_INCIDENTS_TABLE',
    globalIndexes: [GSI1],
    ...common,
  },
  intel: { id: 'intel', suffix: 'intel', configKey: 'SIS_INTEL_TABLE', globalIndexes: [], ...common },
};

export const TABLE_IDS = Object.keys(TABLES) as TableId[];

export function physicalTableName(tenant: string, id: TableId): string {
  return `sis-${tenant}-${TABLES[id].suffix}`;
}

export function tableName(cfg: Config, id: TableId): string {
  return cfg[TABLES[id].configKey];
}
