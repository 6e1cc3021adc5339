import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, resetConfigForTests } from '../../../shared/config';
import type { Entity } from '../../../shared/domain/core/entity';
import { edgesFromIncident } from '../../../shared/domain/graph/graph';
import { assertIncident } from '../../../shared/domain/incidents/incident-input';
import { newId } from '../../../shared/services/investigations/investigations';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { entityPk, GraphRepository } from '../../../shared/store/graph-repository';
import { IncidentsRepository } from '../../../shared/store/incidents-repository';
import { KeysRepository } from '../../../shared/store/keys-repository';
import { SearchIndexingRepository } from '../../../shared/store/search-index/indexing-repository';
import { TENANT_PK } from '../../../shared/store/search-index/keys';
import { TenantListRepository } from '../../../shared/store/search-index/tenant-list-repository';
import { HistoryRepository } from '../../../shared/store/sessions/history-repository';
import { SessionsRepository } from '../../../shared/store/sessions/session-repository';
import { ToolResultsRepository } from '../../../shared/store/sessions/tool-results-repository';
import { createIsolatedTables, type IsolatedTables } from '../../support/dynamodb';
import { searchEntry } from '../../support/search-index';
import { event, newSession } from '../../support/sessions-store';

/*
 * Retention against DynamoDB Local (docs/deploy.md "Retention"): each kind's items carry the TTL its
 * configured days give, and an item past its TTL that DynamoDB has not deleted yet (deletion lags by
 * up to days) is not served by the reads the service makes of it.
 */
const DAY = 86_400;
const DAYS = { sessions: 30, incidents: 60, graph: 10, audit: 400 };
const RETENTION_ENV = {
  SIS_SESSION_RETENTION_DAYS: String(DAYS.sessions),
  SIS_INCIDENT_RETENTION_DAYS: String(DAYS.incidents),
  SIS_GRAPH_RETENTION_DAYS: String(DAYS.graph),
  SIS_AUDIT_RETENTION_DAYS: String(DAYS.audit),
};

let tables: IsolatedTables;
let doc: ReturnType<typeof createDocumentClient>;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const [name, value] of Object.entries(RETENTION_ENV)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  resetConfigForTests();
  tables = await createIsolatedTables();
  doc = createDocumentClient(parseConfig({ ...tables.env }));
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
});

const items = async (table: string, pk: string) =>
  (
    await doc.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

/** What DynamoDB leaves between an item's TTL and its deletion: the TTL an hour past. */
const expire = (table: string, key: { pk: string; sk: string }) =>
  doc.send(
    new UpdateCommand({
      TableName: table,
      Key: key,
      UpdateExpression: 'SET expires_at_epoch = :past',
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 3600 },
    }),
  );

const nowEpoch = () => Math.floor(Date.now() / 1000);

describe('retention TTL in the stores', () => {
  it('gives every item of a session the TTL of its creation, and serves none of it once past', async () => {
    const created = new Date(Date.now() - 2 * DAY * 1000);
    const session = newSession({ session_id: newId('s', created), created_at: created.toISOString() });
    const table = tables.names.sessions;
    const sessions = new SessionsRepository(doc, table);
    const history = new HistoryRepository(doc, table);
    await sessions.create({ ...session }, [event('created')]);
    await history.append(session.session_id, [event('later')]);
    await new ToolResultsRepository(doc, table).recordDeferred(
      session.session_id,
      { tool: 'whois', call: { tool: 'whois' } as never },
      [event('tool')],
    );
    const entry = searchEntry(session.session_id, session.owner_key_id, session.created_at);
    await new SearchIndexingRepository(doc, table).indexOpenSession(entry, ['203.0.113.66']);

    const expected = Math.floor(created.getTime() / 1000) + DAYS.sessions * DAY;
    const partition = await items(table, `SESSION#${session.session_id}`);
    const withTtl = partition.filter((item) => item.sk !== 'OPEN');
    expect(withTtl.map((item) => item.sk).sort()).toEqual(['D#TOOL#whois', 'H#000001', 'H#000002', 'META']);
    expect(withTtl.map((item) => item.expires_at_epoch)).toEqual(withTtl.map(() => expected));
    const list = new TenantListRepository(doc, table);
    expect((await list.list({ terms: [], limit: 10 })).hits.map((hit) => hit.session_id)).toEqual([
      session.session_id,
    ]);
    expect((await sessions.get(session.session_id))?.session_id).toBe(session.session_id);

    // Past its TTL, before DynamoDB deletes it: not read, not polled, not listed.
    for (const item of partition) await expire(table, { pk: String(item.pk), sk: String(item.sk) });
    const postings = (await items(table, TENANT_PK)).filter((p) => String(p.sk).endsWith(session.session_id));
    for (const posting of postings) await expire(table, { pk: String(posting.pk), sk: String(posting.sk) });
    expect(await sessions.get(session.session_id)).toBeUndefined();
    const page = await history.readPage(session.session_id, undefined, 50);
    expect(page.session).toBeUndefined();
    expect(page.history).toEqual([]);
    expect((await list.list({ terms: [], limit: 10 })).hits).toEqual([]);
  });

  it('keeps an incident for its retention after its last ingestion and no longer serves it past it', async () => {
    const repository = new IncidentsRepository(doc, tables.names.incidents);
    const incident = assertIncident({
      source: 'custom',
      source_id: 'ret-1',
      title: 'Old phishing wave',
      severity: 'high',
      status: 'new',
      created_at: '2024-01-01T00:00:00.000Z',
    });
    const ingested = new Date();
    await repository.upsert(incident, ingested);
    const key = { pk: `INCIDENT#${incident.incident_id}`, sk: 'META' };
    const { Item } = await doc.send(new GetCommand({ TableName: tables.names.incidents, Key: key }));
    expect(Item?.expires_at_epoch).toBe(Math.floor(ingested.getTime() / 1000) + DAYS.incidents * DAY);
    expect((await repository.list({ limit: 10 })).incidents.map((i) => i.incident_id)).toEqual([
      incident.incident_id,
    ]);

    await expire(tables.names.incidents, key);
    expect(await repository.get(incident.incident_id)).toBeUndefined();
    expect((await repository.list({ limit: 10 })).incidents).toEqual([]);
  });

  it('keeps graph items for the retention after their last sighting, each sighting pushing it on', async () => {
    const graph = new GraphRepository(doc, tables.names.graph);
    const ip: Entity = { type: 'ip', value: '198.51.100.23' };
    const user: Entity = { type: 'user', value: 'retention@contoso.example' };
    const sight = (id: string) => {
      const incident = { incident_id: id, entities: [ip, user], created_at: '2025-05-05T00:00:00.000Z' };
      const nodes = [ip, user].map((entity) => ({
        entity,
        kind: 'incident' as const,
        at: incident.created_at,
      }));
      return graph.record(
        { id, kind: 'incident', at: incident.created_at },
        nodes,
        edgesFromIncident(incident),
      );
    };
    const before = nowEpoch();
    await sight('inc_r1');
    const partition = await items(tables.names.graph, entityPk(ip));
    const byKind = Object.fromEntries(partition.map((item) => [String(item.sk).split('#')[0], item]));
    for (const kind of ['NODE', 'EDGE', 'EVIDENCE']) {
      expect(byKind[kind]?.expires_at_epoch).toBeGreaterThanOrEqual(before + DAYS.graph * DAY);
      expect(byKind[kind]?.expires_at_epoch).toBeLessThanOrEqual(nowEpoch() + DAYS.graph * DAY);
    }
    // The value index entry outlives its node, so a node is never unfindable by value.
    expect(byKind.VALUE?.expires_at_epoch).toBeGreaterThan(Number(byKind.NODE?.expires_at_epoch));
    expect((await graph.neighbours(ip, { limit: 10 })).sides.map((side) => side.other.value)).toEqual([
      user.value,
    ]);

    // Past its TTL: the edge is no neighbour, the node no node, the marker no evidence.
    for (const item of partition)
      await expire(tables.names.graph, { pk: String(item.pk), sk: String(item.sk) });
    expect((await graph.neighbours(ip, { limit: 10 })).sides).toEqual([]);
    expect(await graph.getNode(ip)).toBeUndefined();
    expect((await graph.getNodes([ip])).size).toBe(0);
    expect(await graph.evidenceIds(ip, 'incident', 10)).toEqual([]);

    // A new sighting over the expired, undeleted items starts afresh with a new TTL.
    await sight('inc_r2');
    expect(await graph.getNode(ip)).toMatchObject({ incident_count: 1 });
    expect(await graph.evidenceIds(ip, 'incident', 10)).toEqual(['inc_r2']);
    const renewed = await items(tables.names.graph, entityPk(ip));
    const live = renewed.filter((item) => Number(item.expires_at_epoch) > nowEpoch()).map((item) => item.sk);
    // The first incident's marker was not seen again: it stays expired.
    expect(live.sort()).toEqual(
      renewed
        .map((item) => item.sk)
        .filter((sk) => sk !== 'EVIDENCE#incident#inc_r1')
        .sort(),
    );
  });

  it('keeps an audit record for the audit retention from the audited action and lists none past it', async () => {
    const keys = new KeysRepository(doc, tables.names.keys);
    const at = new Date().toISOString();
    await keys.appendAudit({
      audit_id: 'aud_ret',
      at,
      action: 'disable',
      key_id: 'k1',
      actor: 'admin',
      details: {},
    });
    const key = { pk: 'AUDIT', sk: `${at}#aud_ret` };
    const { Item } = await doc.send(new GetCommand({ TableName: tables.names.keys, Key: key }));
    expect(Item?.expires_at_epoch).toBe(Math.floor(Date.parse(at) / 1000) + DAYS.audit * DAY);
    expect((await keys.listAudit()).map((entry) => entry.audit_id)).toEqual(['aud_ret']);

    await expire(tables.names.keys, key);
    expect(await keys.listAudit()).toEqual([]);
  });
});
