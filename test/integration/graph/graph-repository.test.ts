import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import type { Entity } from '../../../shared/domain/core/entity';
import { edgesFromIncident, edgesFromInvestigation } from '../../../shared/domain/graph/graph';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { GraphRepository } from '../../../shared/store/graph-repository';
import { createIsolatedTables } from '../../support/dynamodb';

const ip: Entity = { type: 'ip', value: '203.0.113.66' };
const user: Entity = { type: 'user', value: 'j.doe@contoso.example' };
const host: Entity = { type: 'host', value: 'ws-042' };

let graph: GraphRepository;

beforeAll(async () => {
  const tables = await createIsolatedTables();
  const cfg = parseConfig({ ...tables.env });
  graph = new GraphRepository(createDocumentClient(cfg), tables.names.graph);
});

function incident(id: string, entities: Entity[], at = '2026-11-01T08:00:00.000Z') {
  return { incident_id: id, entities, created_at: at };
}

describe('graph repository', () => {
  it('writes both sides of every edge and counts each entity once per incident, even when replayed', async () => {
    const first = incident('inc_a', [ip, user, host]);
    const evidence = { id: 'inc_a', kind: 'incident' as const, at: first.created_at };
    const nodes = first.entities.map((entity) => ({
      entity,
      kind: 'incident' as const,
      at: first.created_at,
    }));
    await graph.record(evidence, nodes, edgesFromIncident(first));
    await graph.record(evidence, nodes, edgesFromIncident(first));
    await Promise.all([1, 2, 3].map(() => graph.record(evidence, nodes, edgesFromIncident(first))));

    const fromIp = await graph.neighbours(ip, { limit: 10 });
    expect(fromIp.sides.map((s) => s.other.value).sort()).toEqual(['j.doe@contoso.example', 'ws-042']);
    expect(fromIp.sides.every((s) => s.count === 1 && s.evidence.join() === 'inc_a')).toBe(true);
    const fromUser = await graph.neighbours(user, { limit: 10 });
    expect(fromUser.sides).toHaveLength(2);
    expect(await graph.getNode(ip)).toMatchObject({ incident_count: 1, investigation_count: 0 });

    const second = incident('inc_b', [ip, user], '2026-11-02T08:00:00.000Z');
    await graph.record(
      { id: 'inc_b', kind: 'incident', at: second.created_at },
      second.entities.map((entity) => ({ entity, kind: 'incident' as const, at: second.created_at })),
      edgesFromIncident(second),
    );
    const again = await graph.neighbours(ip, { limit: 10 });
    const toUser = again.sides.find((s) => s.other.value === user.value);
    expect(toUser).toMatchObject({ count: 2, evidence: ['inc_a', 'inc_b'], last_seen: second.created_at });
    expect(await graph.getNode(ip)).toMatchObject({ incident_count: 2, last_seen: second.created_at });
    expect(await graph.typesOf(ip.value)).toEqual(['ip']);
  });

  it('records an investigation: node with risk score, related edges, idempotent', async () => {
    const at = '2026-11-03T10:00:00.000Z';
    const subject: Entity = { type: 'domain', value: 'evil.example' };
    await graph.upsertNode({ entity: subject, kind: 'investigation', at, risk_score: 91 }, 's_session0001');
    const edges = edgesFromInvestigation({ session_id: 's_session0001', entity: subject, related: [ip], at });
    await graph.recordEdges(edges, { id: 's_session0001', kind: 'investigation', at });
    await graph.recordEdges(edges, { id: 's_session0001', kind: 'investigation', at });
    await graph.upsertNode({ entity: subject, kind: 'investigation', at, risk_score: 91 }, 's_session0001');
    expect(await graph.getNode(subject)).toMatchObject({ investigation_count: 1, risk_score: 91 });
    expect(await graph.getNode(ip)).toMatchObject({ investigation_count: 1, incident_count: 2 });
    const page = await graph.neighbours(subject, { limit: 5 });
    expect(page.sides).toEqual([
      expect.objectContaining({ other: ip, relationship: 'related_in_investigation', count: 1 }),
    ]);
  });

  it('pages a neighbourhood with a cursor, without repeats', async () => {
    const hub: Entity = { type: 'host', value: 'hub-01' };
    const others = Array.from(
      { length: 25 },
      (_, i): Entity => ({ type: 'ip', value: `198.51.100.${i + 1}` }),
    );
    const at = '2026-11-04T00:00:00.000Z';
    await graph.recordEdges(
      others.flatMap((other, i) => edgesFromIncident(incident(`inc_h${i}`, [hub, other], at))).slice(0, 1),
      { id: 'inc_h0', kind: 'incident', at },
    );
    for (let i = 1; i < others.length; i++) {
      await graph.recordEdges(edgesFromIncident(incident(`inc_h${i}`, [hub, others[i]!], at)), {
        id: `inc_h${i}`,
        kind: 'incident',
        at,
      });
    }
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await graph.neighbours(hub, { limit: 10, after });
      seen.push(...page.sides.map((s) => s.other.value));
      after = page.next;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(25);
    expect(await graph.getNode(hub)).toMatchObject({ incident_count: 25 });
  });
});
