import { perConfiguration } from '../../config';
import { type Entity, type EntityType, entityKey, entityLabel } from '../../domain/core/entity';
import { normaliseEntity } from '../../domain/core/entity-normalisation';
import { NotFoundError, ValidationError } from '../../domain/core/errors';
import {
  assembleNeighborhood,
  compareNeighbors,
  type EdgeSide,
  type Neighbor,
  sharedTlp,
} from '../../domain/graph/graph';
import {
  entityPk,
  type GraphRepository,
  graphRepositoryFromConfig,
  isEdgeSortKey,
  type StoredNode,
} from '../../store/graph-repository';
import { tenantKnowledgeReadsFromConfig } from '../../store/tenant-knowledge/tenant-knowledge-reads';
import * as z from '../../zod';
import { deploymentCursorCodec } from '../auth/cursor-secrets';

/**
 * Query Knowledge Graph: an entity and its neighbourhood.
 *
 * - The value is normalised like every entity (normaliseEntity). With `type` it is looked up as that
 *   type; without, the types it is stored under are read from the value index: one → that one;
 *   several → the inferred type if it is among them (inference rules of normaliseEntity), otherwise
 *   400 naming the types to choose from. Not in the graph → 404.
 * - Depth 1 is one Query on the entity's partition, `limit` edges per page in key order (neighbour
 *   type, value, relationship), ranked strongest first within the page; `next_cursor` continues.
 * - Depth 2 adds, for the DEPTH2_FANOUT strongest neighbours of the page, up to DEPTH2_PER_NEIGHBOR
 *   of their own edges (one Query each, in parallel): a bounded preview, not a full expansion.
 * - Each neighbour carries the latest risk score of its node, when an investigation scored it: the
 *   nodes are read in one BatchGetItem per depth (at most `limit`, then 100 keys), never one by one.
 */
export const DEPTH2_FANOUT = 10;
export const DEPTH2_PER_NEIGHBOR = 10;

export interface GraphQueryInput {
  value: string;
  type?: EntityType | undefined;
  depth: number;
  limit: number;
  cursor?: string | undefined;
  /**
   * Leave TLP:RED nodes out (API keys, the plugin included): the queried entity answers 404 as if
   * absent, and red neighbours are dropped from both depths. The console's signed-in analysts see them.
   */
  hideRed?: boolean;
  /**
   * With hideRed: the tenant's "do not share" marks (TenantKnowledgeReads), whose entities are
   * withheld like red ones (404 saying withheld; dropped from neighbours).
   */
  doNotShare?: { listMarks(): Promise<ReadonlyArray<{ entity_type: EntityType; value: string }>> };
}

export interface GraphEntityView {
  type: EntityType;
  value: string;
  risk_score?: number;
  first_seen: string;
  last_seen: string;
  investigation_count: number;
  incident_count: number;
}

export interface GraphQueryResult {
  entity: GraphEntityView;
  neighbors: Neighbor[];
  next_cursor: string | null;
}

const position = /* @__PURE__ */ (() => z.object({ after: z.string().check(z.refine(isEdgeSortKey)) }))();

function entityView(node: StoredNode): GraphEntityView {
  return {
    type: node.type,
    value: node.value,
    ...(node.risk_score !== undefined ? { risk_score: node.risk_score } : {}),
    first_seen: node.first_seen,
    last_seen: node.last_seen,
    investigation_count: node.investigation_count,
    incident_count: node.incident_count,
  };
}

async function resolveEntity(
  graph: GraphRepository,
  value: string,
  type: EntityType | undefined,
): Promise<Entity> {
  if (type) return normaliseEntity({ type, value }, 'path.value');
  const inferred = normaliseEntity(value, 'path.value');
  const types = await graph.typesOf(inferred.value);
  if (types.length === 0 || types.includes(inferred.type)) return inferred;
  if (types.length === 1) return { type: types[0] as EntityType, value: inferred.value };
  throw new ValidationError(
    `"${inferred.value}" is in the knowledge graph as ${types.join(' and ')}; say which with ?type=${types.join(' or ?type=')}.`,
    [{ path: 'query.type', message: `required to choose between ${types.join(', ')}` }],
  );
}

export async function queryKnowledgeGraph(
  graph: GraphRepository,
  input: GraphQueryInput,
): Promise<GraphQueryResult> {
  const entity = await resolveEntity(graph, input.value, input.type);
  const binding = { op: 'queryKnowledgeGraph', type: entity.type, value: entity.value, depth: input.depth };
  const after = input.cursor
    ? (await deploymentCursorCodec()).decode(input.cursor, binding, position).after
    : undefined;

  const [node, page, marks] = await Promise.all([
    graph.getNode(entity),
    graph.neighbours(entity, { limit: input.limit, after }),
    input.hideRed && input.doNotShare ? input.doNotShare.listMarks() : [],
  ]);
  const marked = new Set(marks.map((m) => entityKey({ type: m.entity_type, value: m.value })));
  if (!node) {
    throw new NotFoundError(
      `The knowledge graph has no ${entityLabel(entity)}: no incident or completed investigation has named it yet.`,
    );
  }
  if (input.hideRed && sharedTlp(node) === 'red') {
    // Not an absence: say it is withheld (issue 36, item 4).
    throw new NotFoundError(
      `The knowledge graph withholds ${entityLabel(entity)} from API keys: only TLP:RED investigations have named it.`,
    );
  }
  if (marked.has(entityKey(entity))) {
    throw new NotFoundError(
      `The knowledge graph withholds ${entityLabel(entity)} from API keys: the tenant marks it do not share.`,
    );
  }
  const nodes = new Map<string, StoredNode>();
  const visible = visibleSides(graph, nodes, input.hideRed === true, marked);
  const sides = await visible(page.sides);

  const depth2 = new Map<string, EdgeSide[]>();
  if (input.depth >= 2 && sides.length > 0) {
    const strongest = assembleNeighborhood(entity, sides)
      .sort(compareNeighbors)
      .slice(0, DEPTH2_FANOUT)
      .map((n): Entity => ({ type: n.type, value: n.value }));
    const unique = [...new Map(strongest.map((e) => [entityKey(e), e])).values()];
    const pages = await Promise.all(unique.map((e) => graph.neighbours(e, { limit: DEPTH2_PER_NEIGHBOR })));
    const kept = await visible(pages.flatMap((p) => p.sides));
    unique.forEach((e) => {
      depth2.set(
        entityKey(e),
        kept.filter((side) => entityKey(side.self) === entityKey(e)),
      );
    });
  }

  return {
    entity: entityView(node),
    neighbors: assembleNeighborhood(entity, sides, depth2).map((neighbor) => {
      const risk = nodes.get(entityPk(neighbor))?.risk_score;
      return risk === undefined ? neighbor : { ...neighbor, risk_score: risk };
    }),
    next_cursor: page.next ? (await deploymentCursorCodec()).encode({ after: page.next }, binding) : null,
  };
}

/**
 * The edge sides to answer, with the nodes at their other ends read into `nodes` (one batch read per
 * depth, at most `limit` and DEPTH2_FANOUT × DEPTH2_PER_NEIGHBOR keys): their latest risk scores go
 * on the neighbours, and with `hideRed` the sides whose other end is a TLP:RED node or marked do not share are dropped.
 */
function visibleSides(
  graph: GraphRepository,
  nodes: Map<string, StoredNode>,
  hideRed: boolean,
  marked: ReadonlySet<string>,
) {
  return async (sides: EdgeSide[]): Promise<EdgeSide[]> => {
    const read = await graph.getNodes(sides.map((side) => side.other));
    for (const [pk, node] of read) nodes.set(pk, node);
    if (!hideRed) return sides;
    return sides.filter((side) => {
      const other = read.get(entityPk(side.other));
      if (marked.has(entityKey(side.other))) return false;
      return !other || sharedTlp(other) !== 'red';
    });
  };
}

/** The graph store of this process (one per cold start; rebuilt when tests reset the config). */
export const graphStore: () => GraphRepository = /* @__PURE__ */ perConfiguration((cfg) =>
  graphRepositoryFromConfig(cfg),
);

/** The tenant's "do not share" marks of this process, for API-key graph answers (GraphQueryInput). */
export const doNotShareMarks = /* @__PURE__ */ perConfiguration((cfg) => tenantKnowledgeReadsFromConfig(cfg));
