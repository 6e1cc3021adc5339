import { type Entity, entityKey } from '../core/entity';
import { stricterTlp, type Tlp } from '../core/tlp';
import type { RiskBasisEntry } from '../core/vocabulary';
import { earlierTime, laterTime, type NormalisedIncident } from '../incidents/incident';

/**
 * The knowledge graph's model: entities are nodes, and an edge records that two entities were seen
 * together, how often, when first and last, and the latest evidence (incident or session IDs).
 * The store keeps it as an adjacency list (each edge written under both entities); this module
 * decides what an observation adds and how a repeated observation merges, without any storage.
 */
export const RELATIONSHIPS = [
  /** Both entities appear in the same SIEM incident. */
  'co_occurs_in_incident',
  /** The second entity turned up while investigating the first (or vice versa). */
  'related_in_investigation',
  /** A domain or host resolved to an IP address (directed: name → ip). */
  'resolves_to',
  /** A user signed in from an IP address or host (directed: user → ip/host). */
  'logged_in_from',
  /** A host connected to an IP address or domain (directed: host → ip/domain). */
  'connected_to',
  /** A name imitating a brand's domain (directed: look-alike → the imitated domain). */
  'impersonates',
  /** A name under a registrable domain (directed: subdomain → parent). */
  'subdomain_of',
  /** Two spellings of one identity (an account and its alias). */
  'alias_of',
] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

const DIRECTED: Record<Relationship, boolean> = {
  co_occurs_in_incident: false,
  related_in_investigation: false,
  resolves_to: true,
  logged_in_from: true,
  connected_to: true,
  impersonates: true,
  subdomain_of: true,
  alias_of: false,
};

export function isDirected(relationship: Relationship): boolean {
  return DIRECTED[relationship];
}

/**
 * Whether a neighbour's risk passes to an entity across a relationship: only where the two share
 * control or activity. `both`: either way; `to_from`: from the edge's `to` into its `from` (a parent
 * domain's risk into its subdomain, never a subdomain's into its parent, which may be a hosting
 * platform); `never`: an impersonator's risk says nothing about what it imitates, nor the brand's about
 * its look-alikes, and `related_in_investigation` edges were written before the link's meaning was kept.
 */
const RISK_FLOW: Record<Relationship, 'both' | 'to_from' | 'never'> = {
  co_occurs_in_incident: 'both',
  related_in_investigation: 'never',
  resolves_to: 'both',
  logged_in_from: 'both',
  connected_to: 'both',
  impersonates: 'never',
  subdomain_of: 'to_from',
  alias_of: 'both',
};

/**
 * Whether the entity on this side of an edge takes on its neighbour's risk. `direction` is the
 * side's (`out`: the entity is the edge's `from`); a relationship the graph does not know carries none.
 */
export function carriesRisk(relationship: string, direction?: Direction): boolean {
  const flow = RISK_FLOW[relationship as Relationship];
  if (flow === 'both') return true;
  if (flow === 'to_from') return direction === 'out';
  return false;
}

/** The graph relationship a link found by analysis is written as (report.ts DiscoveredEdge.link). */
export function relationshipForLink(link: string | undefined): Relationship {
  return link === 'impersonates' || link === 'subdomain_of' || link === 'alias_of'
    ? link
    : 'related_in_investigation';
}

/** Evidence IDs kept per edge: the newest ones, enough to drill into without an unbounded item. */
export const EVIDENCE_LIMIT = 20;
/**
 * Entities of one incident that are linked pairwise. Co-occurrence is a clique (n(n-1)/2 edges, each
 * stored twice); 12 entities give 66 edges, while an incident listing 50 would write 2,450 items.
 */
export const MAX_LINKED_ENTITIES_PER_INCIDENT = 12;
/** Related entities of one investigation that are linked to its subject. */
export const MAX_LINKED_ENTITIES_PER_INVESTIGATION = 25;

export interface Edge {
  /** For an undirected relationship, the smaller entity of the pair (see `compareEntities`). */
  from: Entity;
  to: Entity;
  relationship: Relationship;
  first_seen: string;
  last_seen: string;
  count: number;
  /** Newest last, at most EVIDENCE_LIMIT, no repeats. */
  evidence: string[];
}

/** Total order on entities (type, then value by code unit), so a pair has one canonical spelling. */
export function compareEntities(a: Entity, b: Entity): number {
  const left = entityKey(a);
  const right = entityKey(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function canonicalPair(a: Entity, b: Entity): [Entity, Entity] {
  return compareEntities(a, b) <= 0 ? [a, b] : [b, a];
}

/** One stable identity per edge: the merge key, and what the store derives its sort keys from. */
export function edgeKey(edge: Pick<Edge, 'from' | 'to' | 'relationship'>): string {
  return `${edge.relationship}|${entityKey(edge.from)}|${entityKey(edge.to)}`;
}

/** An edge for one observation; undirected relationships are put in canonical order. */
export function observeEdge(
  a: Entity,
  b: Entity,
  relationship: Relationship,
  at: string,
  evidenceId: string,
): Edge | undefined {
  if (compareEntities(a, b) === 0) return undefined;
  const [from, to] = isDirected(relationship) ? [a, b] : canonicalPair(a, b);
  return { from, to, relationship, first_seen: at, last_seen: at, count: 1, evidence: [evidenceId] };
}

function distinct(entities: readonly Entity[], limit: number): Entity[] {
  const seen = new Set<string>();
  const out: Entity[] = [];
  for (const entity of entities) {
    const key = entityKey(entity);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entity);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Entities in the same incident are related: one `co_occurs_in_incident` edge per pair among the
 * first MAX_LINKED_ENTITIES_PER_INCIDENT distinct entities, seen at the incident's creation time.
 */
export function edgesFromIncident(
  incident: Pick<NormalisedIncident, 'incident_id' | 'entities' | 'created_at'>,
): Edge[] {
  const entities = distinct(incident.entities, MAX_LINKED_ENTITIES_PER_INCIDENT);
  const edges: Edge[] = [];
  for (let i = 0; i < entities.length; i++) {
    for (let j = i + 1; j < entities.length; j++) {
      const edge = observeEdge(
        entities[i]!,
        entities[j]!,
        'co_occurs_in_incident',
        incident.created_at,
        incident.incident_id,
      );
      if (edge) edges.push(edge);
    }
  }
  return edges;
}

/** An entity an investigation found, with how (report.ts DiscoveredEdge.link), when the tool said. */
export interface LinkedEntity {
  entity: Entity;
  link?: string;
}

/**
 * The subject of an investigation is related to each entity its report names, under the link's own
 * relationship (`impersonates`, `subdomain_of`, `alias_of`) so that scoring can tell what the link
 * means; an entity given without a link is `related_in_investigation`.
 */
export function edgesFromInvestigation(investigation: {
  session_id: string;
  entity: Entity;
  related: readonly (Entity | LinkedEntity)[];
  at: string;
}): Edge[] {
  const linked = investigation.related.map((r): LinkedEntity => ('entity' in r ? r : { entity: r }));
  const links = new Map<string, string | undefined>();
  for (const r of linked) if (!links.has(entityKey(r.entity))) links.set(entityKey(r.entity), r.link);
  return distinct(
    linked.map((r) => r.entity),
    MAX_LINKED_ENTITIES_PER_INVESTIGATION + 1,
  )
    .map((other) =>
      observeEdge(
        investigation.entity,
        other,
        relationshipForLink(links.get(entityKey(other))),
        investigation.at,
        investigation.session_id,
      ),
    )
    .filter((edge): edge is Edge => edge !== undefined)
    .slice(0, MAX_LINKED_ENTITIES_PER_INVESTIGATION);
}

/**
 * Merges an observation into the stored edge. The count grows by the observation's count unless
 * all of its evidence is already on the edge: a re-delivered incident or a replayed queue message
 * does not count twice (within the evidence window; see `graphChangesForIncident` for the rule
 * that makes it exact for incidents).
 */
export function mergeEdge(existing: Edge | undefined, observed: Edge): Edge {
  if (!existing) {
    return { ...observed, evidence: observed.evidence.slice(-EVIDENCE_LIMIT) };
  }
  if (edgeKey(existing) !== edgeKey(observed)) {
    throw new Error(`Cannot merge edge ${edgeKey(observed)} into ${edgeKey(existing)}`);
  }
  const fresh = observed.evidence.filter((id) => !existing.evidence.includes(id));
  const repeat = observed.evidence.length > 0 && fresh.length === 0;
  const evidence = [...existing.evidence.filter((id) => !fresh.includes(id)), ...fresh].slice(
    -EVIDENCE_LIMIT,
  );
  return {
    ...existing,
    first_seen: earlierTime(existing.first_seen, observed.first_seen),
    last_seen: laterTime(existing.last_seen, observed.last_seen),
    count: repeat ? existing.count : existing.count + observed.count,
    evidence,
  };
}

export interface NodeObservation {
  entity: Entity;
  kind: 'incident' | 'investigation';
  at: string;
  /** Latest risk score from an investigation of this entity, 0-100. */
  risk_score?: number;
  /** The TLP of the session that observed it (incidents carry none). */
  tlp?: Tlp;
  /** What that score rests on (investigation scoring.ts riskBasisOf), written with it. */
  risk_basis?: RiskBasisEntry[];
}

export interface EntityNode {
  type: Entity['type'];
  value: string;
  first_seen: string;
  last_seen: string;
  incident_count: number;
  investigation_count: number;
  risk_score?: number;
  /** When risk_score was set, so an older investigation finishing late does not overwrite a newer score. */
  risk_scored_at?: string;
  /**
   * The highest TLP of the sessions that wrote the node (absent: only incidents, or written before
   * TLP was recorded). What is shared is `sharedTlp`: red only while nothing but red sessions
   * named the node.
   */
  tlp?: Tlp;
  /** On a red node: an incident or a session below red named it too (mergeNode), so red hides nothing of it. */
  named_outside_red?: true;
  /** What risk_score rests on; absent on nodes scored before it existed. */
  risk_basis?: RiskBasisEntry[];
}

export function mergeNode(existing: EntityNode | undefined, observation: NodeObservation): EntityNode {
  const base: EntityNode = existing ?? {
    type: observation.entity.type,
    value: observation.entity.value,
    first_seen: observation.at,
    last_seen: observation.at,
    incident_count: 0,
    investigation_count: 0,
  };
  const node: EntityNode = {
    ...base,
    first_seen: earlierTime(base.first_seen, observation.at),
    last_seen: laterTime(base.last_seen, observation.at),
    incident_count: base.incident_count + (observation.kind === 'incident' ? 1 : 0),
    investigation_count: base.investigation_count + (observation.kind === 'investigation' ? 1 : 0),
  };
  if (
    observation.risk_score !== undefined &&
    (!base.risk_scored_at || observation.at >= base.risk_scored_at)
  ) {
    node.risk_score = observation.risk_score;
    node.risk_scored_at = observation.at;
    if (observation.risk_basis) node.risk_basis = observation.risk_basis;
    else delete node.risk_basis;
  }
  if (observation.tlp) node.tlp = base.tlp ? stricterTlp(base.tlp, observation.tlp) : observation.tlp;
  // Recorded on red nodes only (others need no flag): a non-red observation now, or before this one.
  const namedOutside = observation.tlp !== 'red' || (existing !== undefined && existing.tlp !== 'red');
  if (node.tlp === 'red' && namedOutside) node.named_outside_red = true;
  return node;
}

/**
 * The node's TLP for everything shared beyond red sessions (API-key graph answers, neighbours in
 * non-red reports, third-party lookups): red hides only what red sessions contributed, so a node
 * that an incident or a lower session also named is shared at amber at most (the highest level
 * below red), never withheld. A node only red sessions named stays red.
 */
export function sharedTlp(
  node: Pick<EntityNode, 'tlp' | 'named_outside_red' | 'incident_count'>,
): Tlp | undefined {
  if (node.tlp !== 'red') return node.tlp;
  return node.named_outside_red || node.incident_count > 0 ? 'amber' : 'red';
}

/**
 * What storing `next` adds to the graph, given the version already stored (`previous`, undefined
 * for a new incident): nodes for entities it did not have, edges for pairs it did not have. An
 * update that only changes status or title adds nothing, so counts stay exact however often a SIEM
 * re-sends an incident.
 */
export function graphChangesForIncident(
  previous: Pick<NormalisedIncident, 'incident_id' | 'entities' | 'created_at'> | undefined,
  next: Pick<NormalisedIncident, 'incident_id' | 'entities' | 'created_at'>,
): { nodes: NodeObservation[]; edges: Edge[] } {
  const before = new Set((previous?.entities ?? []).map(entityKey));
  const nodes = distinct(next.entities, next.entities.length)
    .filter((entity) => !before.has(entityKey(entity)))
    .map((entity): NodeObservation => ({ entity, kind: 'incident', at: next.created_at }));
  const oldEdges = new Set(previous ? edgesFromIncident(previous).map(edgeKey) : []);
  const edges = edgesFromIncident(next).filter((edge) => !oldEdges.has(edgeKey(edge)));
  return { nodes, edges };
}

export type Direction = 'out' | 'in' | 'both';

/** What an edge says seen from one of its entities: how it relates to the other, when and how often. */
export interface SidedEdgeFacts {
  relationship: Relationship;
  direction: Direction;
  first_seen: string;
  last_seen: string;
  count: number;
  evidence: string[];
}

/** An edge as seen from one of its two entities: what is stored in that entity's partition. */
export interface EdgeSide extends SidedEdgeFacts {
  self: Entity;
  other: Entity;
}

/** The sided facts of an edge side, in the order the API lists them. */
export function sidedEdgeFacts(side: SidedEdgeFacts): SidedEdgeFacts {
  return {
    relationship: side.relationship,
    direction: side.direction,
    first_seen: side.first_seen,
    last_seen: side.last_seen,
    count: side.count,
    evidence: side.evidence,
  };
}

/** The two adjacency items of an edge. */
export function edgeSides(edge: Edge): [EdgeSide, EdgeSide] {
  const directed = isDirected(edge.relationship);
  const common = {
    relationship: edge.relationship,
    first_seen: edge.first_seen,
    last_seen: edge.last_seen,
    count: edge.count,
    evidence: edge.evidence,
  };
  return [
    { ...common, self: edge.from, other: edge.to, direction: directed ? 'out' : 'both' },
    { ...common, self: edge.to, other: edge.from, direction: directed ? 'in' : 'both' },
  ];
}

/** Rebuilds the edge from either side (what mergeEdge needs when the store reads one item). */
export function edgeFromSide(side: EdgeSide): Edge {
  const [from, to] =
    side.direction === 'in'
      ? [side.other, side.self]
      : side.direction === 'out'
        ? [side.self, side.other]
        : canonicalPair(side.self, side.other);
  return {
    from,
    to,
    relationship: side.relationship,
    first_seen: side.first_seen,
    last_seen: side.last_seen,
    count: side.count,
    evidence: side.evidence,
  };
}

export interface Neighbor extends SidedEdgeFacts {
  type: Entity['type'];
  value: string;
  depth: 1 | 2;
  /** For depth 2: the depth-1 neighbor this one was reached through. */
  via?: Entity;
  /** The latest investigation's risk score of this entity (0-100), when one scored it. */
  risk_score?: number;
}

/** Strongest first: seen most often, then most recently, then by key so pages are stable. */
export function compareNeighbors(a: Neighbor, b: Neighbor): number {
  if (a.depth !== b.depth) return a.depth - b.depth;
  if (a.count !== b.count) return b.count - a.count;
  if (a.last_seen !== b.last_seen) return a.last_seen < b.last_seen ? 1 : -1;
  const left = `${entityKey(a)}|${a.relationship}`;
  const right = `${entityKey(b)}|${b.relationship}`;
  return left < right ? -1 : left > right ? 1 : 0;
}

function toNeighbor(side: EdgeSide, depth: 1 | 2, via?: Entity): Neighbor {
  const neighbor: Neighbor = {
    type: side.other.type,
    value: side.other.value,
    ...sidedEdgeFacts(side),
    depth,
  };
  if (via) neighbor.via = via;
  return neighbor;
}

/**
 * A neighborhood from the center's edges (depth 1) and, for depth 2, the edges of its depth-1
 * neighbors. A depth-2 entity that is the center or already a depth-1 neighbor is left out, and
 * one reached through several depth-1 neighbors is listed once, via the strongest path. The
 * result is ranked with `compareNeighbors`; optionally only one entity type is kept.
 */
export function assembleNeighborhood(
  center: Entity,
  depth1: readonly EdgeSide[],
  depth2: ReadonlyMap<string, readonly EdgeSide[]> = new Map(),
  filter: { type?: Entity['type'] | undefined } = {},
): Neighbor[] {
  const centerKey = entityKey(center);
  const first = depth1
    .filter((side) => entityKey(side.other) !== centerKey)
    .map((side) => toNeighbor(side, 1));
  const direct = new Set(first.map((n) => entityKey(n)));
  const second = new Map<string, Neighbor>();
  for (const [viaKey, sides] of depth2) {
    const via = first.find((n) => entityKey(n) === viaKey);
    if (!via) continue;
    for (const side of sides) {
      const key = entityKey(side.other);
      if (key === centerKey || direct.has(key)) continue;
      const candidate = toNeighbor(side, 2, { type: via.type, value: via.value });
      const known = second.get(key);
      if (!known || compareNeighbors(candidate, known) < 0) second.set(key, candidate);
    }
  }
  return [...first, ...second.values()]
    .filter((n) => !filter.type || n.type === filter.type)
    .sort(compareNeighbors);
}
