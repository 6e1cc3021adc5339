import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createLocalDynamoDbClient,
  DynamoDbLocalPortInUseError,
  startDynamoDbLocal,
} from '../../../local/dynamodb-local';
import { ensureTables, tableEnvironment, tableNamesFor } from '../../../shared/store/create-tables';
import { physicalTableName, TABLE_IDS, TABLES } from '../../../shared/store/tables';
import { createIsolatedTables, dynamodbEndpoint, type IsolatedTables } from '../../support/dynamodb';
import { isProcessRunning, runModuleSnippet, waitUntilGone } from '../../support/dynamodb-processes';

// These tests start JVMs and wait for DynamoDB Local to build an index; on a loaded 2-core CI machine
// that can exceed the integration project's 60 s default.
vi.setConfig({ testTimeout: 180_000 });

const keyOf = (pk: string, sk: string) => ({ pk: { S: pk }, sk: { S: sk } });

// Concurrent: DynamoDB Local schedules index builds on existing tables every 10 s, so that test mostly
// waits, while the process tests mostly compute; overlapping them keeps the file short.
describe.concurrent('tables on the shared DynamoDB Local', () => {
  let tables: IsolatedTables;
  beforeAll(async () => {
    tables = await createIsolatedTables();
  });

  it('creates every declared table with pk/sk, on-demand billing, its indexes and TTL', async () => {
    for (const id of TABLE_IDS) {
      const { Table } = await tables.client.send(new DescribeTableCommand({ TableName: tables.names[id] }));
      expect(Table?.TableStatus).toBe('ACTIVE');
      expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
      expect(Table?.KeySchema).toEqual([
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ]);
      const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
        name: index.IndexName,
        keys: index.KeySchema?.map((key) => `${key.KeyType}:${key.AttributeName}`),
        projection: index.Projection?.ProjectionType,
        status: index.IndexStatus,
      }));
      expect(indexes).toEqual(
        TABLES[id].globalIndexes.map((index) => ({
          name: index.indexName,
          keys: [`HASH:${index.partitionKey}`, `RANGE:${index.sortKey}`],
          projection: 'ALL',
          status: 'ACTIVE',
        })),
      );
      const { TimeToLiveDescription } = await tables.client.send(
        new DescribeTimeToLiveCommand({ TableName: tables.names[id] }),
      );
      expect(TimeToLiveDescription).toEqual({
        AttributeName: 'expires_at_epoch',
        TimeToLiveStatus: 'ENABLED',
      });
    }
    // Guards against the index comparison above passing vacuously.
    expect(TABLE_IDS.some((id) => TABLES[id].globalIndexes.length > 0)).toBe(true);
  });

  it('exposes the names through the environment that config() reads', () => {
    expect(tables.env).toEqual({
      SIS_KEYS_TABLE: `${tables.prefix}-keys`,
      SIS_SESSIONS_TABLE: `${tables.prefix}-sessions`,
      SIS_GRAPH_TABLE: `${tables.prefix}-graph`,
      SIS_INCIDENTS_TABLE: `${tables.prefix}-incidents`,
      SIS_INTEL_TABLE: `${tables.prefix}-intel`,
      SIS_DYNAMODB_ENDPOINT: dynamodbEndpoint(),
    });
    expect(tableNamesFor('sis-acme')).toEqual(
      Object.fromEntries(TABLE_IDS.map((id) => [id, physicalTableName('acme', id)])),
    );
  });

  it('is idempotent under concurrent callers and keeps existing data', async () => {
    const item = { ...keyOf('KEY#kept', 'META'), name: { S: 'survives' } };
    await tables.client.send(new PutItemCommand({ TableName: tables.names.keys, Item: item }));
    const otherClient = createLocalDynamoDbClient(dynamodbEndpoint());
    await Promise.all([
      ensureTables(tables.client, tables.names),
      ensureTables(otherClient, tables.names),
      ensureTables(tables.client, tables.names),
    ]);
    const { Item } = await tables.client.send(
      new GetItemCommand({ TableName: tables.names.keys, Key: keyOf('KEY#kept', 'META') }),
    );
    expect(Item).toEqual(item);

    const fresh = tableNamesFor(`${tables.prefix}-race`);
    await Promise.all([ensureTables(tables.client, fresh), ensureTables(otherClient, fresh)]);
    const { TableNames } = await tables.client.send(new ListTablesCommand({}));
    expect(TableNames?.filter((name) => name.startsWith(`${tables.prefix}-race-`)).sort()).toEqual(
      Object.values(fresh).sort(),
    );
    otherClient.destroy();
  });

  // DynamoDB Local builds indexes one at a time for all tables of an instance: on the suite's shared instance
  // (every file's tables) this waits minutes, on an instance of its own about 10 s.
  it('adds an index declared after the table was first created (DynamoDB Local builds it within ~10 s)', {
    timeout: 240_000,
  }, async () => {
    const own = await startDynamoDbLocal({});
    const client = createLocalDynamoDbClient(own.endpoint);
    try {
      await addsLateIndex(client);
    } finally {
      client.destroy();
      await own.stop();
    }
  });

  it('cancels a whole transaction when one condition fails, as on AWS', async () => {
    const TableName = tables.names.sessions;
    await tables.client.send(
      new PutItemCommand({ TableName, Item: { ...keyOf('SESSION#a', 'META'), v: { N: '1' } } }),
    );

    const attempt = tables.client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName, Item: { ...keyOf('SESSION#b', 'META'), v: { N: '1' } } } },
          {
            ConditionCheck: {
              TableName,
              Key: keyOf('SESSION#a', 'META'),
              ConditionExpression: 'attribute_not_exists(pk)',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
        ],
      }),
    );
    const error = await attempt.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(TransactionCanceledException);
    const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
    expect(reasons.map((reason) => reason.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    expect(reasons[1]?.Item?.v).toEqual({ N: '1' });
    const b = await tables.client.send(new GetItemCommand({ TableName, Key: keyOf('SESSION#b', 'META') }));
    expect(b.Item).toBeUndefined();

    await tables.client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName, Item: { ...keyOf('SESSION#b', 'META'), v: { N: '1' } } } },
          {
            Update: {
              TableName,
              Key: keyOf('SESSION#a', 'META'),
              UpdateExpression: 'SET v = v + :one',
              ConditionExpression: 'v = :one',
              ExpressionAttributeValues: { ':one': { N: '1' } },
            },
          },
        ],
      }),
    );
    const a = await tables.client.send(new GetItemCommand({ TableName, Key: keyOf('SESSION#a', 'META') }));
    expect(a.Item?.v).toEqual({ N: '2' });
  });
});

describe.concurrent('DynamoDB Local processes', () => {
  const scratch: string[] = [];
  afterAll(async () => {
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  });

  it('keeps data across a stop and a start with a data folder, and stop leaves no java process', {
    timeout: 240_000,
  }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sis-ddb-data-'));
    scratch.push(dataDir);
    const names = tableNamesFor('sis-persist');
    const item = { ...keyOf('INCIDENT#1', 'META'), title: { S: 'kept across restarts' } };

    const first = await startDynamoDbLocal({ dataDir });
    const firstPid = first.process.pid!;
    const client = createLocalDynamoDbClient(first.endpoint);
    await ensureTables(client, names);
    await client.send(new PutItemCommand({ TableName: names.incidents, Item: item }));
    client.destroy();
    await first.stop();
    expect(isProcessRunning(firstPid)).toBe(false);
    expect(existsSync(join(dataDir, 'shared-local-instance.db'))).toBe(true);
    await first.stop(); // a second stop is harmless

    const second = await startDynamoDbLocal({ dataDir, port: first.port });
    try {
      const again = createLocalDynamoDbClient(second.endpoint);
      const { Item } = await again.send(
        new GetItemCommand({ TableName: names.incidents, Key: keyOf('INCIDENT#1', 'META') }),
      );
      expect(Item).toEqual(item);
      await ensureTables(again, names); // restart path of the local runtime: tables already there
      again.destroy();
    } finally {
      await second.stop();
    }
    expect(isProcessRunning(second.process.pid!)).toBe(false);
  });

  it('refuses a port that is already taken, naming SIS_DYNAMODB_PORT', async () => {
    const takenPort = Number(new URL(dynamodbEndpoint()).port);
    const attempt = startDynamoDbLocal({ port: takenPort });
    await expect(attempt).rejects.toBeInstanceOf(DynamoDbLocalPortInUseError);
    await expect(attempt).rejects.toThrow(
      new RegExp(`Port ${takenPort} is already in use.*SIS_DYNAMODB_PORT`),
    );
    // The instance already on that port is untouched.
    const client = createLocalDynamoDbClient(dynamodbEndpoint());
    await expect(client.send(new ListTablesCommand({ Limit: 1 }))).resolves.toBeDefined();
    client.destroy();
  });

  it('does not outlive a parent that exits without stopping it or is killed outright', {
    timeout: 240_000,
  }, async () => {
    const snippet = `
      const { startDynamoDbLocal } = await import('./local/dynamodb-local.ts');
      const dynamodb = await startDynamoDbLocal({});
      console.log(JSON.stringify({ pid: dynamodb.process.pid }));
      if (process.env.HOW === 'exit') setTimeout(() => process.exit(3), 50);
      else setInterval(() => undefined, 1000);
    `;
    const exiting = runModuleSnippet(snippet, { HOW: 'exit' });
    const killed = runModuleSnippet(snippet, { HOW: 'kill' });
    const [exitingJava, killedJava] = await Promise.all(
      [exiting, killed].map(
        async (parent) => (JSON.parse(await parent.nextLine(120_000)) as { pid: number }).pid,
      ),
    );
    expect(isProcessRunning(killedJava!)).toBe(true);
    killed.child.kill('SIGKILL');

    expect(await exiting.exited).toBe(3);
    expect(await waitUntilGone(exitingJava!, 5_000)).toBe(true);
    await killed.exited;
    expect(await waitUntilGone(killedJava!, 10_000)).toBe(true);
  });
});

describe('tableEnvironment', () => {
  it('maps every table to the variable config() reads', () => {
    expect(tableEnvironment(tableNamesFor('p'))).toEqual({
      SIS_KEYS_TABLE: 'p-keys',
      SIS_SESSIONS_TABLE: 'p-sessions',
      SIS_GRAPH_TABLE: 'p-graph',
      SIS_INCIDENTS_TABLE: 'p-incidents',
      SIS_INTEL_TABLE: 'p-intel',
    });
  });
});

/** A table created before its index was declared gets the index from ensureTables, and it becomes ACTIVE. */
async function addsLateIndex(client: DynamoDBClient): Promise<void> {
  const names = tableNamesFor('sis-late-index');
  await client.send(
    new CreateTableCommand({
      TableName: names.graph,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
  await ensureTables(client, names);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: names.graph }));
  expect(Table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.IndexStatus])).toEqual([
    ['gsi1', 'ACTIVE'],
  ]);
}
