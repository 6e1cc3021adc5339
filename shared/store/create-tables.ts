import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  ResourceInUseException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { type GlobalIndexDefinition, TABLE_IDS, TABLES, type TableDefinition, type TableId } from './tables';

/**
 * Creates the declared tables where they are missing: for the local runtime and tests (on AWS the CDK
 * stack creates them from the same declarations in tables.ts). Idempotent and safe to run from several
 * processes at once, so a test file or a restarted local runtime can call it unconditionally.
 */
export async function ensureTables(client: DynamoDBClient, names: Record<TableId, string>): Promise<void> {
  await Promise.all(TABLE_IDS.map((id) => ensureTable(client, TABLES[id], names[id])));
}

/** `<prefix>-<suffix>` per table; `tableNamesFor('sis-acme')` equals `physicalTableName('acme', id)`. */
export function tableNamesFor(prefix: string): Record<TableId, string> {
  return Object.fromEntries(TABLE_IDS.map((id) => [id, `${prefix}-${TABLES[id].suffix}`])) as Record<
    TableId,
    string
  >;
}

/** The SIS_*_TABLE variables config() reads, for the given physical names. */
export function tableEnvironment(
  names: Record<TableId, string>,
): Record<TableDefinition['configKey'], string> {
  return Object.fromEntries(TABLE_IDS.map((id) => [TABLES[id].configKey, names[id]])) as Record<
    TableDefinition['configKey'],
    string
  >;
}

const WAIT_TIMEOUT_MS = 300_000;

async function ensureTable(client: DynamoDBClient, table: TableDefinition, name: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(table, name)));
  } catch (error) {
    // Exists already, or a concurrent caller is creating it.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  let description = await waitUntilActive(client, name);
  // A table created by an older version of the declarations lacks indexes added since (local data
  // persists across upgrades); DynamoDB accepts one index creation per UpdateTable call.
  for (const index of table.globalIndexes) {
    if (description.GlobalSecondaryIndexes?.some((existing) => existing.IndexName === index.indexName))
      continue;
    try {
      await client.send(
        new UpdateTableCommand({
          TableName: name,
          AttributeDefinitions: indexAttributes(index),
          GlobalSecondaryIndexUpdates: [{ Create: globalIndex(index) }],
        }),
      );
    } catch (error) {
      if (!(error instanceof ResourceInUseException) && !isAlreadyExists(error)) throw error;
    }
    description = await waitUntilActive(client, name);
  }
  await ensureTimeToLive(client, name, table.ttlAttribute);
}

function createTableInput(table: TableDefinition, name: string) {
  const attributes = new Map<string, AttributeDefinition>();
  for (const attributeName of [table.partitionKey, table.sortKey]) {
    attributes.set(attributeName, { AttributeName: attributeName, AttributeType: 'S' });
  }
  for (const index of table.globalIndexes) {
    for (const attribute of indexAttributes(index)) attributes.set(attribute.AttributeName!, attribute);
  }
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes.values()],
    KeySchema: [
      { AttributeName: table.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: table.sortKey, KeyType: 'RANGE' as const },
    ],
    ...(table.globalIndexes.length > 0
      ? { GlobalSecondaryIndexes: table.globalIndexes.map(globalIndex) }
      : {}),
  };
}

function indexAttributes(index: GlobalIndexDefinition): AttributeDefinition[] {
  return [
    { AttributeName: index.partitionKey, AttributeType: 'S' },
    { AttributeName: index.sortKey, AttributeType: 'S' },
  ];
}

function globalIndex(index: GlobalIndexDefinition): GlobalSecondaryIndex {
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  };
}

/** Waits until the table and every index on it are ACTIVE (DynamoDB Local is immediate; AWS is not). */
async function waitUntilActive(client: DynamoDBClient, name: string): Promise<TableDescription> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1_000)) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    const active =
      Table?.TableStatus === 'ACTIVE' &&
      (Table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE');
    if (active && Table) return Table;
    if (Date.now() > deadline) {
      throw new Error(
        `Table ${name} is not ACTIVE after ${WAIT_TIMEOUT_MS / 1000} s (${Table?.TableStatus})`,
      );
    }
    await new Promise((wake) => setTimeout(wake, delay));
  }
}

async function ensureTimeToLive(client: DynamoDBClient, name: string, attribute: string): Promise<void> {
  const isOn = async () => {
    const { TimeToLiveDescription: ttl } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: name }),
    );
    return (
      ttl?.AttributeName === attribute &&
      (ttl.TimeToLiveStatus === 'ENABLED' || ttl.TimeToLiveStatus === 'ENABLING')
    );
  };
  if (await isOn()) return;
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: name,
        TimeToLiveSpecification: { AttributeName: attribute, Enabled: true },
      }),
    );
  } catch (error) {
    // A concurrent caller enabled it first ("TimeToLive is already enabled").
    if (!(await isOn())) throw error;
  }
}

function isAlreadyExists(error: unknown): boolean {
  return error instanceof Error && /already exists/i.test(error.message);
}
