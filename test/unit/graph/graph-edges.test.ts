import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import {
  assembleNeighborhood,
  canonicalPair,
  carriesRisk,
  type Edge,
  type EdgeSide,
  EVIDENCE_LIMIT,
  edgeFromSide,
  edgeKey,
  edgeSides,
  edgesFromIncident,
  edgesFromInvestigation,
  graphChangesForIncident,
  MAX_LINKED_ENTITIES_PER_INCIDENT,
  mergeEdge,
  mergeNode,
  observeEdge,
  sharedTlp,
} from '../../../shared/domain/graph/graph';

const ip: Entity = { type: 'ip', value: '203.0.113.66' };
const user: Entity = { type: 'user', value: 'j.doe@contoso.example' };
const host: Entity = { type: 'host', value: 'ws-0142' };
const domain: Entity = { type: 'domain', value: 'micros0ft-login.example.com' };

const incident = {
  incident_id: 'inc_a',
  created_at: '2026-11-01T08:00:00.000Z',
  entities: [user, ip, host],
};

describe('edges from an incident', () => {
  it('links every pair once, in canonical order, with the incident as evidence', () => {
    const edges = edgesFromIncident(incident);
    expect(edges.map((e) => [e.from.value, e.to.value])).toEqual([
      ['203.0.113.66', 'j.doe@contoso.example'],
      ['ws-0142', 'j.doe@contoso.example'],
      ['ws-0142', '203.0.113.66'],
    ]);
    for (const edge of edges) {
      expect(edge).toMatchObject({
        relationship: 'co_occurs_in_incident',
        first_seen: incident.created_at,
        last_seen: incident.created_at,
        count: 1,
        evidence: ['inc_a'],
      });
    }
  });

  it('gives the same edges whatever the order of the entities', () => {
    const keys = (entities: Entity[]) =>
      edgesFromIncident({ ...incident, entities })
        .map(edgeKey)
        .sort();
    expect(keys([host, ip, user])).toEqual(keys([user, ip, host]));
  });

  it('ignores duplicates and has no edges for fewer than two entities', () => {
    expect(edgesFromIncident({ ...incident, entities: [ip, ip] })).toEqual([]);
    expect(edgesFromIncident({ ...incident, entities: [ip] })).toEqual([]);
    expect(edgesFromIncident({ ...incident, entities: [] })).toEqual([]);
  });

  it('links at most the first 12 entities (66 edges)', () => {
    const many = Array.from({ length: 50 }, (_, i): Entity => ({ type: 'ip', value: `198.51.100.${i + 1}` }));
    const edges = edgesFromIncident({ ...incident, entities: many });
    const n = MAX_LINKED_ENTITIES_PER_INCIDENT;
    expect(edges).toHaveLength((n * (n - 1)) / 2);
    expect(edges.some((e) => e.to.value === '198.51.100.13' || e.from.value === '198.51.100.13')).toBe(false);
  });

  it('canonical order is a total order on (type, value)', () => {
    expect(canonicalPair(user, ip)).toEqual([ip, user]);
    expect(canonicalPair(ip, user)).toEqual([ip, user]);
  });
});

describe('edges from an investigation', () => {
  it('links the subject to each related entity, not to itself', () => {
    const edges = edgesFromInvestigation({
      session_id: 's_1',
      entity: ip,
      related: [user, ip, domain, user],
      at: '2026-11-01T09:00:00.000Z',
    });
    expect(edges.map((e) => [e.relationship, e.from.value, e.to.value, e.evidence])).toEqual([
      ['related_in_investigation', '203.0.113.66', 'j.doe@contoso.example', ['s_1']],
      ['related_in_investigation', 'micros0ft-login.example.com', '203.0.113.66', ['s_1']],
    ]);
  });

  it('writes a link found by analysis under its own relationship, which says whether risk flows', () => {
    const brand: Entity = { type: 'domain', value: 'microsoft.com' };
    const parent: Entity = { type: 'domain', value: 'example.com' };
    const edges = edgesFromInvestigation({
      session_id: 's_1',
      entity: domain,
      related: [
        { entity: brand, link: 'impersonates' },
        { entity: parent, link: 'subdomain_of' },
      ],
      at: '2026-11-01T09:00:00.000Z',
    });
    expect(edges.map((e) => [e.relationship, e.from.value, e.to.value])).toEqual([
      ['impersonates', 'micros0ft-login.example.com', 'microsoft.com'],
      ['subdomain_of', 'micros0ft-login.example.com', 'example.com'],
    ]);
    const [impersonated, subdomain] = edges.map(edgeSides);
    // The imitated brand never takes on its look-alike's risk, nor the look-alike the brand's.
    expect(impersonated!.map((side) => carriesRisk(side.relationship, side.direction))).toEqual([
      false,
      false,
    ]);
    // A parent's risk flows into its subdomain, never the other way.
    expect(subdomain!.map((side) => carriesRisk(side.relationship, side.direction))).toEqual([true, false]);
    expect(carriesRisk('co_occurs_in_incident', 'both')).toBe(true);
    expect(carriesRisk('related_in_investigation', 'both')).toBe(false);
  });

  it('keeps the direction of a directed relationship', () => {
    const edge = observeEdge(domain, ip, 'resolves_to', '2026-11-01T09:00:00.000Z', 's_1')!;
    expect([edge.from, edge.to]).toEqual([domain, ip]);
    const [fromSide, toSide] = edgeSides(edge);
    expect(fromSide).toMatchObject({ self: domain, other: ip, direction: 'out' });
    expect(toSide).toMatchObject({ self: ip, other: domain, direction: 'in' });
    expect(edgeFromSide(toSide)).toEqual(edge);
    expect(edgeFromSide(fromSide)).toEqual(edge);
  });
});

describe('merging an edge seen again', () => {
  const first = edgesFromIncident(incident)[0]!;
  const later = edgesFromIncident({
    ...incident,
    incident_id: 'inc_b',
    created_at: '2026-11-03T00:00:00.000Z',
  })[0]!;
  const earlier = edgesFromIncident({
    ...incident,
    incident_id: 'inc_0',
    created_at: '2026-10-01T00:00:00.000Z',
  })[0]!;

  it('counts, widens first/last seen and appends the evidence', () => {
    const merged = mergeEdge(mergeEdge(mergeEdge(undefined, first), later), earlier);
    expect(merged).toMatchObject({
      count: 3,
      first_seen: '2026-10-01T00:00:00.000Z',
      last_seen: '2026-11-03T00:00:00.000Z',
      evidence: ['inc_a', 'inc_b', 'inc_0'],
    });
  });

  it('does not count a replayed observation twice', () => {
    const once = mergeEdge(undefined, first);
    expect(mergeEdge(once, first)).toEqual(once);
  });

  it('keeps only the newest 20 evidence IDs', () => {
    let edge: Edge | undefined;
    for (let i = 0; i < 30; i++) edge = mergeEdge(edge, { ...first, evidence: [`inc_${i}`] });
    expect(edge!.count).toBe(30);
    expect(edge!.evidence).toHaveLength(EVIDENCE_LIMIT);
    expect(edge!.evidence[0]).toBe('inc_10');
    expect(edge!.evidence.at(-1)).toBe('inc_29');
  });

  it('refuses to merge different edges', () => {
    const other = edgesFromIncident(incident)[1]!;
    expect(() => mergeEdge(first, other)).toThrow();
  });

  it('property: merging is order-independent for count and seen times', () => {
    const observation = fc.record({
      id: fc.integer({ min: 0, max: 1000 }).map((n) => `inc_${n}`),
      at: fc.date({ min: new Date('2026-01-01'), max: new Date('2026-12-31'), noInvalidDate: true }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(observation, { selector: (o) => o.id, maxLength: 15 }), (observations) => {
        const edges = observations.map((o) => ({
          ...first,
          evidence: [o.id],
          first_seen: o.at.toISOString(),
          last_seen: o.at.toISOString(),
        }));
        const forward = edges.reduce<Edge | undefined>((acc, e) => mergeEdge(acc, e), undefined);
        const backward = [...edges]
          .reverse()
          .reduce<Edge | undefined>((acc, e) => mergeEdge(acc, e), undefined);
        expect(forward?.count).toBe(backward?.count);
        expect(forward?.first_seen).toBe(backward?.first_seen);
        expect(forward?.last_seen).toBe(backward?.last_seen);
        expect(forward?.count ?? 0).toBe(observations.length);
      }),
    );
  });
});

describe('graph changes of an incident upsert', () => {
  it('a new incident adds all its nodes and edges', () => {
    const changes = graphChangesForIncident(undefined, incident);
    expect(changes.nodes.map((n) => n.entity)).toEqual([user, ip, host]);
    expect(changes.nodes.every((n) => n.kind === 'incident' && n.at === incident.created_at)).toBe(true);
    expect(changes.edges).toHaveLength(3);
  });

  it('a re-sent incident adds nothing, so counts stay exact', () => {
    expect(graphChangesForIncident(incident, incident)).toEqual({ nodes: [], edges: [] });
  });

  it('an update adding an entity adds only that node and its edges', () => {
    const changes = graphChangesForIncident(incident, {
      ...incident,
      entities: [...incident.entities, domain],
    });
    expect(changes.nodes.map((n) => n.entity)).toEqual([domain]);
    expect(changes.edges).toHaveLength(3);
    expect(changes.edges.every((e) => e.from.value === domain.value || e.to.value === domain.value)).toBe(
      true,
    );
  });
});

describe('entity nodes', () => {
  it('counts incidents and investigations and keeps the newest risk score', () => {
    let node = mergeNode(undefined, { entity: ip, kind: 'incident', at: '2026-10-05T00:00:00.000Z' });
    node = mergeNode(node, {
      entity: ip,
      kind: 'investigation',
      at: '2026-11-01T00:00:00.000Z',
      risk_score: 82,
    });
    node = mergeNode(node, {
      entity: ip,
      kind: 'investigation',
      at: '2026-10-20T00:00:00.000Z',
      risk_score: 10,
    });
    node = mergeNode(node, { entity: ip, kind: 'incident', at: '2026-09-01T00:00:00.000Z' });
    expect(node).toEqual({
      type: 'ip',
      value: '203.0.113.66',
      first_seen: '2026-09-01T00:00:00.000Z',
      last_seen: '2026-11-01T00:00:00.000Z',
      incident_count: 2,
      investigation_count: 2,
      risk_score: 82,
      risk_scored_at: '2026-11-01T00:00:00.000Z',
    });
  });
});

describe('neighborhood', () => {
  function side(self: Entity, other: Entity, count: number, lastSeen: string): EdgeSide {
    const edge = observeEdge(self, other, 'co_occurs_in_incident', lastSeen, `inc_${other.value}`)!;
    const sides = edgeSides({ ...edge, count });
    return sides.find((s) => s.self.value === self.value)!;
  }

  const otherIp: Entity = { type: 'ip', value: '198.51.100.23' };
  const depth1 = [
    side(ip, host, 1, '2026-10-01T00:00:00.000Z'),
    side(ip, user, 4, '2026-10-02T00:00:00.000Z'),
    side(ip, domain, 4, '2026-10-05T00:00:00.000Z'),
  ];
  const depth2 = new Map([
    [
      'user:j.doe@contoso.example',
      [
        side(user, ip, 4, '2026-10-02T00:00:00.000Z'),
        side(user, host, 2, '2026-10-02T00:00:00.000Z'),
        side(user, otherIp, 1, '2026-10-02T00:00:00.000Z'),
      ],
    ],
    ['host:ws-0142', [side(host, otherIp, 3, '2026-10-03T00:00:00.000Z')]],
  ]);

  it('ranks direct neighbors by count, then recency', () => {
    const neighbors = assembleNeighborhood(ip, depth1);
    expect(neighbors.map((n) => [n.value, n.count, n.depth])).toEqual([
      ['micros0ft-login.example.com', 4, 1],
      ['j.doe@contoso.example', 4, 1],
      ['ws-0142', 1, 1],
    ]);
    expect(neighbors[0]).toMatchObject({ relationship: 'co_occurs_in_incident', direction: 'both' });
  });

  it('adds depth 2 once, through the strongest path, never the center or a direct neighbor again', () => {
    const neighbors = assembleNeighborhood(ip, depth1, depth2);
    expect(neighbors.map((n) => [n.value, n.depth, n.via?.value])).toEqual([
      ['micros0ft-login.example.com', 1, undefined],
      ['j.doe@contoso.example', 1, undefined],
      ['ws-0142', 1, undefined],
      ['198.51.100.23', 2, 'ws-0142'],
    ]);
  });

  it('filters by type', () => {
    expect(assembleNeighborhood(ip, depth1, depth2, { type: 'ip' }).map((n) => n.value)).toEqual([
      '198.51.100.23',
    ]);
  });

  it('keeps the highest TLP of the sessions that wrote the node; incidents leave it as it was', () => {
    const at = '2026-11-01T00:00:00.000Z';
    let node = mergeNode(undefined, { entity: ip, kind: 'incident', at });
    expect(node.tlp).toBeUndefined();
    node = mergeNode(node, { entity: ip, kind: 'investigation', at, tlp: 'amber' });
    expect(node.tlp).toBe('amber');
    node = mergeNode(node, { entity: ip, kind: 'investigation', at, tlp: 'red' });
    node = mergeNode(node, { entity: ip, kind: 'investigation', at, tlp: 'green' });
    node = mergeNode(node, { entity: ip, kind: 'incident', at });
    expect(node.tlp).toBe('red');
  });
});

describe('what red hides (issue 36, item 4)', () => {
  const ip: Entity = { type: 'ip', value: '203.0.113.67' };
  const seen = (tlp: 'red' | 'amber' | undefined, at: string) =>
    ({ entity: ip, kind: tlp ? 'investigation' : 'incident', at, ...(tlp ? { tlp } : {}) }) as const;

  it('keeps a node only red sessions named red, and shares one others named at amber at most', () => {
    const redOnly = mergeNode(
      mergeNode(undefined, seen('red', '2026-11-01T00:00:00.000Z')),
      seen('red', '2026-11-02T00:00:00.000Z'),
    );
    expect(sharedTlp(redOnly)).toBe('red');
    const amberThenRed = mergeNode(
      mergeNode(undefined, seen('amber', '2026-11-01T00:00:00.000Z')),
      seen('red', '2026-11-02T00:00:00.000Z'),
    );
    expect(amberThenRed).toMatchObject({ tlp: 'red', named_outside_red: true });
    expect(sharedTlp(amberThenRed)).toBe('amber');
    expect(sharedTlp(mergeNode(redOnly, seen('amber', '2026-11-03T00:00:00.000Z')))).toBe('amber');
    expect(
      sharedTlp(
        mergeNode(
          mergeNode(undefined, seen(undefined, '2026-11-01T00:00:00.000Z')),
          seen('red', '2026-11-02T00:00:00.000Z'),
        ),
      ),
    ).toBe('amber');
  });
});
