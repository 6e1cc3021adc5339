import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoMeter, startDynamoMeter } from '../../../bench/lib/dynamo-meter';
import { parseConfig } from '../../../shared/config';
import type { Entity } from '../../../shared/domain/core/entity';
import { edgesFromIncident } from '../../../shared/domain/graph/graph';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { GraphRepository } from '../../../shared/store/graph-repository';
import { createIsolatedTables, dynamodbEndpoint } from '../../support/dynamodb';

/**
 * The graph's value index (gsi1) lives on one small item per node, written when the node is
 * created, so the transaction of every later evidence writes no index entry. Units are DynamoDB
 * Local's, read through the bench's metering hop: a transaction that writes an index entry is
 * metered 12, one that writes none 4.
 */
let meter: DynamoMeter;
let graph: GraphRepository;
let raw: DynamoDBDocumentClient;
let table: string;

beforeAll(async () => {
  const tables = await createIsolatedTables();
  meter = await startDynamoMeter(dynamodbEndpoint());
  graph = new GraphRepository(
    createDocumentClient(parseConfig({ ...tables.env, SIS_DYNAMODB_ENDPOINT: meter.endpoint })),
    tables.names.graph,
  );
  raw = createDocumentClient(parseConfig({ ...tables.env }));
  table = tables.names.graph;
});

afterAll(async () => {
  await meter?.stop();
});

let labels = 0;
/** Write units of everything `run` sends, and the number of write calls. */
async function metered(run: () => Promise<void>): Promise<{ units: number; writes: number }> {
  const label = `call-${++labels}`;
  meter.label = label;
  try {
    await run();
  } finally {
    meter.label = undefined;
  }
  const writes = meter.calls.filter((c) => c.label === label && c.writeUnits > 0);
  return { units: writes.reduce((sum, c) => sum + c.writeUnits, 0), writes: writes.length };
}

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T08:00:00.000Z`;

function observe(entity: Entity, id: string, day: number) {
  return graph.record({ id, kind: 'incident', at: at(day) }, [{ entity, kind: 'incident', at: at(day) }], []);
}

/** Every gsi1 entry of a bare value, with the sort key of the item that carries it. */
async function indexEntries(value: string) {
  const result = await raw.send(
    new QueryCommand({
      TableName: table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :value',
      ExpressionAttributeValues: { ':value': `VALUE#${value}` },
    }),
  );
  return (result.Items ?? []).map((item) => ({ sk: item.sk, type: item.gsi1sk }));
}

async function storedNode(entity: Entity) {
  const result = await raw.send(
    new GetCommand({ TableName: table, Key: { pk: `ENTITY#${entity.type}#${entity.value}`, sk: 'NODE' } }),
  );
  return result.Item;
}

/** A node as the code before the value item wrote it: the gsi1 attributes on the node itself. */
async function putLegacyNode(entity: Entity, incidentCount: number) {
  await raw.send(
    new PutCommand({
      TableName: table,
      Item: {
        pk: `ENTITY#${entity.type}#${entity.value}`,
        sk: 'NODE',
        gsi1pk: `VALUE#${entity.value}`,
        gsi1sk: entity.type,
        entity_type: entity.type,
        value: entity.value,
        first_seen: at(1),
        last_seen: at(1),
        incident_count: incidentCount,
        investigation_count: 0,
        version: 1,
      },
    }),
  );
}

describe('graph value index', () => {
  it('indexes a new node once, with its creation; later evidence writes no index entry', async () => {
    const host: Entity = { type: 'host', value: 'ws-value-01' };
    const created = await metered(() => observe(host, 'inc_v1', 1));
    expect(created).toEqual({ units: 12, writes: 1 });
    expect(await graph.typesOf(host.value)).toEqual(['host']);
    expect(await indexEntries(host.value)).toEqual([{ sk: 'VALUE', type: 'host' }]);
    expect(await storedNode(host)).not.toHaveProperty('gsi1pk');

    const updated = await metered(() => observe(host, 'inc_v2', 2));
    expect(updated).toEqual({ units: 4, writes: 1 });
    const withEdges = await metered(() =>
      graph.record(
        { id: 'inc_v3', kind: 'incident', at: at(3) },
        [{ entity: host, kind: 'incident', at: at(3) }],
        edgesFromIncident({
          incident_id: 'inc_v3',
          entities: [host, { type: 'ip', value: '198.51.100.201' }],
          created_at: at(3),
        }),
      ),
    );
    // The host's transaction (node, edge side, marker) is metered 4; the new ip's is 12.
    expect(withEdges).toEqual({ units: 16, writes: 2 });
    expect(await graph.getNode(host)).toMatchObject({ incident_count: 3, last_seen: at(3) });
    expect(await graph.typesOf(host.value)).toEqual(['host']);
    expect(await indexEntries(host.value)).toEqual([{ sk: 'VALUE', type: 'host' }]);
  });

  it('keeps counts exact when the same evidence is applied again, also concurrently', async () => {
    const user: Entity = { type: 'user', value: 'value.index@contoso.example' };
    await Promise.all([1, 2, 3].map(() => observe(user, 'inc_u1', 1)));
    expect(await metered(() => observe(user, 'inc_u1', 1))).toEqual({ units: 0, writes: 0 });
    expect(await graph.getNode(user)).toMatchObject({ incident_count: 1 });

    expect(await metered(() => observe(user, 'inc_u2', 2))).toEqual({ units: 4, writes: 1 });
    expect(await metered(() => observe(user, 'inc_u2', 2))).toEqual({ units: 0, writes: 0 });
    expect(await graph.getNode(user)).toMatchObject({ incident_count: 2 });
    expect(await indexEntries(user.value)).toEqual([{ sk: 'VALUE', type: 'user' }]);
  });

  it('finds a node written before the value item, and moves its entry once, with its first update', async () => {
    const domain: Entity = { type: 'domain', value: 'legacy.example' };
    await putLegacyNode(domain, 5);
    expect(await graph.typesOf(domain.value)).toEqual(['domain']);
    expect(await indexEntries(domain.value)).toEqual([{ sk: 'NODE', type: 'domain' }]);

    // The migration: node put without the gsi1 attributes + the value item, in one transaction.
    expect(await metered(() => observe(domain, 'inc_l1', 2))).toEqual({ units: 12, writes: 1 });
    expect(await storedNode(domain)).not.toHaveProperty('gsi1pk');
    expect(await indexEntries(domain.value)).toEqual([{ sk: 'VALUE', type: 'domain' }]);
    expect(await graph.typesOf(domain.value)).toEqual(['domain']);

    // Migrated once: from now on a normal update.
    expect(await metered(() => observe(domain, 'inc_l2', 3))).toEqual({ units: 4, writes: 1 });
    expect(await metered(() => observe(domain, 'inc_l2', 3))).toEqual({ units: 0, writes: 0 });
    expect(await graph.getNode(domain)).toMatchObject({ incident_count: 7, last_seen: at(3) });
    expect(await indexEntries(domain.value)).toEqual([{ sk: 'VALUE', type: 'domain' }]);
  });

  it('lists a type once while a node rewritten by the previous code carries a second entry, and heals it', async () => {
    const ip: Entity = { type: 'ip', value: '198.51.100.77' };
    await observe(ip, 'inc_r1', 1);
    // A function still running the previous code rewrites the node in its old shape.
    await putLegacyNode(ip, 1);
    expect((await indexEntries(ip.value)).map((e) => e.sk).sort()).toEqual(['NODE', 'VALUE']);
    expect(await graph.typesOf(ip.value)).toEqual(['ip']);

    await observe(ip, 'inc_r2', 2);
    expect(await indexEntries(ip.value)).toEqual([{ sk: 'VALUE', type: 'ip' }]);
    expect(await graph.getNode(ip)).toMatchObject({ incident_count: 2 });
  });
});
