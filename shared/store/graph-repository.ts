import { setTimeout as pause } from 'node:timers/promises';
import { type DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import { type Entity, type EntityType, isEntityType } from '../domain/core/entity';
import {
  type Edge,
  type EdgeSide,
  edgeFromSide,
  edgeSides,
  mergeEdge,
  mergeNode,
  type NodeObservation,
} from '../domain/graph/graph';
import { consistentBatchGet } from './batch-operations';
import { isContendedWrite } from './condition-failures';
import { documentClientFor } from './dynamo-client';
import { expiredItem, graphTtl, live } from './retention/retention-ttl';
import { GSI1, tableName } from './tables';

export type { EvidenceKind, EvidenceRef, StoredNode } from './graph-items';

export interface NeighbourPage {
  sides: EdgeSide[];
  /** Sort key of the last edge side read, when the partition has more. */
  next?: string;
}

const MAX_TRANSACTION_ITEMS = 100;
/**
 * Edge sides per transaction: the rest of the 100 items are the node, its value item (the
 * transaction that creates or migrates the node) and the evidence item.
 */
const SIDES_PER_TRANSACTION = MAX_TRANSACTION_ITEMS - 3;
const MAX_ATTEMPTS = 8;
/** Entity partitions written in parallel for one observation. */
const PARTITION_CONCURRENCY = 6;

import {
  EDGE_PREFIX,
  EVIDENCE_PREFIX,
  type EvidenceKind,
  type EvidenceRef,
  edgeSk,
  entityPk,
  evidenceSk,
  type Item,
  isLegacyIndexedNode,
  NODE_SK,
  nodeFromItem,
  nodeItem,
  type StoredNode,
  sideFromItem,
  sideItem,
  valueIndexPk,
  valueItem,
} from './graph-items';

export { edgeSk, entityPk, nodeItems, sideItem } from './graph-items';

interface Versioned<T> {
  value: T;
  version: number | undefined;
}

/** What one evidence contributes to one entity's partition. */
interface PartitionWork {
  entity: Entity;
  node: NodeObservation;
  sides: EdgeSide[];
}

/** The side as seen from `self`, out of a freshly observed edge. */
function sideFor(edge: Edge, self: Entity): EdgeSide {
  const [a, b] = edgeSides(edge);
  return a.self.type === self.type && a.self.value === self.value ? a : b;
}

async function inBatches<T>(
  items: readonly T[],
  width: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  });
  await Promise.all(workers);
}

export class GraphRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Records edges observed by one incident or session (domain `edgesFromIncident` /
   * `edgesFromInvestigation`): both sides of every edge, and each endpoint's node counted once for
   * this evidence. Idempotent: recording the same evidence again changes nothing.
   */
  async recordEdges(edges: readonly Edge[], evidence: EvidenceRef): Promise<void> {
    await this.record(evidence, [], edges);
  }

  /**
   * Counts the entity once for this evidence (incident_count or investigation_count), widens
   * first/last seen and, for an investigation, sets the risk score unless a newer one is stored.
   * Idempotent per (entity, evidence).
   */
  async upsertNode(observation: NodeObservation, evidenceId: string): Promise<void> {
    await this.record({ id: evidenceId, kind: observation.kind, at: observation.at }, [observation], []);
  }

  /** Nodes and edges of one evidence together (the incident consumer's single call). */
  async record(
    evidence: EvidenceRef,
    nodes: readonly NodeObservation[],
    edges: readonly Edge[],
  ): Promise<void> {
    const work = new Map<string, PartitionWork>();
    const tlp = evidence.tlp ? { tlp: evidence.tlp } : {};
    const workFor = (entity: Entity) => {
      const key = entityPk(entity);
      let entry = work.get(key);
      if (!entry) {
        entry = { entity, node: { entity, kind: evidence.kind, at: evidence.at, ...tlp }, sides: [] };
        work.set(key, entry);
      }
      return entry;
    };
    for (const node of nodes) workFor(node.entity).node = { ...node, kind: evidence.kind, ...tlp };
    for (const edge of edges) {
      const observed: Edge = { ...edge, evidence: [evidence.id], count: 1 };
      for (const self of [edge.from, edge.to]) workFor(self).sides.push(sideFor(observed, self));
    }
    await inBatches([...work.values()], PARTITION_CONCURRENCY, async (entry) => {
      const chunks: EdgeSide[][] = [];
      for (let i = 0; i < entry.sides.length; i += SIDES_PER_TRANSACTION) {
        chunks.push(entry.sides.slice(i, i + SIDES_PER_TRANSACTION));
      }
      if (chunks.length === 0) chunks.push([]);
      for (const sides of chunks) await this.applyToPartition(evidence, { ...entry, sides });
    });
  }

  private async applyToPartition(evidence: EvidenceRef, work: PartitionWork): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.tryApply(evidence, work);
        return;
      } catch (error) {
        if (!isContendedWrite(error) || attempt >= MAX_ATTEMPTS) throw error;
        await pause(Math.random() * 20 * 2 ** attempt);
      }
    }
  }

  private async tryApply(evidence: EvidenceRef, work: PartitionWork): Promise<void> {
    const pk = entityPk(work.entity);
    const sideKeys = [...new Set(work.sides.map(edgeSk))];
    const marker = evidenceSk(evidence);
    const stored = await this.getMany(pk, [NODE_SK, marker, ...sideKeys]);
    // An item past its TTL that DynamoDB has not deleted yet counts as absent, but its version
    // still guards the write that replaces it.
    const versionOf = (sk: string) => {
      const item = stored.get(sk);
      return item ? Number(item.version ?? 0) : undefined;
    };
    const now = Date.now();
    const items = new Map([...stored].filter(([, item]) => !expiredItem(item, now)));
    // Every item this sighting writes is kept for the graph retention from now (last seen + N).
    const ttl = graphTtl(now);

    const nodeRecord = items.get(NODE_SK);
    const existingNode: Versioned<StoredNode> | undefined = nodeRecord
      ? { value: nodeFromItem(nodeRecord), version: Number(nodeRecord.version ?? 0) }
      : undefined;
    const markerRecord = items.get(marker);
    const applied = new Set<string>(
      Array.isArray(markerRecord?.applied) ? markerRecord.applied.map(String) : [],
    );

    const puts: { item: Item; previousVersion: number | undefined }[] = [];
    let nextNode: StoredNode | undefined;
    if (!markerRecord) {
      nextNode = mergeNode(existingNode?.value, work.node);
    } else if (work.node.risk_score !== undefined && existingNode) {
      // Counted already (e.g. by recordEdges of the same session); only the score may be new.
      const merged = mergeNode(existingNode.value, work.node);
      if (
        merged.risk_score !== existingNode.value.risk_score ||
        merged.risk_scored_at !== existingNode.value.risk_scored_at
      ) {
        nextNode = {
          ...merged,
          incident_count: existingNode.value.incident_count,
          investigation_count: existingNode.value.investigation_count,
        };
      }
    }

    const newlyApplied: string[] = [];
    for (const side of work.sides) {
      const sk = edgeSk(side);
      if (applied.has(sk) || newlyApplied.includes(sk)) continue;
      const current = items.get(sk);
      const merged = mergeEdge(current ? edgeFromSide(sideFromItem(current)) : undefined, edgeFromSide(side));
      const version = versionOf(sk);
      puts.push({
        item: { ...sideItem(sideFor(merged, work.entity), (version ?? 0) + 1), ...ttl },
        previousVersion: version,
      });
      newlyApplied.push(sk);
    }

    // The value item is written when the node is created, or moved off a legacy node by the first
    // put that rewrites it, or when the node's TTL passes the value item's (valueItemTtl); every other
    // transaction leaves the index alone. Unconditional: it is a function of the key alone, so
    // rewriting it is harmless, and the node's version condition already decides whether the
    // transaction applies.
    let indexEntry: Item | undefined;
    if (nextNode) {
      const nodeVersion = versionOf(NODE_SK);
      const value = valueItemTtl(nodeRecord, ttl.expires_at_epoch);
      puts.unshift({
        item: { ...nodeItem(nextNode, (nodeVersion ?? 0) + 1), ...ttl, ...value.onNode },
        previousVersion: nodeVersion,
      });
      if (!nodeRecord || isLegacyIndexedNode(nodeRecord) || value.rewrite)
        indexEntry = { ...valueItem(work.entity), ...value.onItem };
    }
    if (puts.length === 0 && markerRecord) return;

    const markerVersion = versionOf(marker);
    puts.push({
      item: {
        pk,
        sk: marker,
        evidence_kind: evidence.kind,
        evidence_id: evidence.id,
        at: evidence.at,
        applied: [...applied, ...newlyApplied],
        version: (markerVersion ?? 0) + 1,
        ...ttl,
      },
      previousVersion: markerVersion,
    });

    await this.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          ...puts.map(({ item, previousVersion }) => ({
            Put: {
              TableName: this.table,
              Item: item,
              ...(previousVersion === undefined
                ? { ConditionExpression: 'attribute_not_exists(pk)' }
                : {
                    ConditionExpression: '#version = :version',
                    ExpressionAttributeNames: { '#version': 'version' },
                    ExpressionAttributeValues: { ':version': previousVersion },
                  }),
            },
          })),
          ...(indexEntry ? [{ Put: { TableName: this.table, Item: indexEntry } }] : []),
        ],
      }),
    );
  }

  /** Consistent batch read of several items of one partition, by sort key. */
  private async getMany(pk: string, sortKeys: readonly string[]): Promise<Map<string, Item>> {
    const items = await consistentBatchGet(
      this.doc,
      this.table,
      sortKeys.map((sk) => ({ pk, sk })),
    );
    return new Map(items.map((item) => [String(item.sk), item as Item]));
  }

  /** The nodes of several entities (absent ones left out), keyed by `entityPk`. */
  async getNodes(entities: readonly Entity[]): Promise<Map<string, StoredNode>> {
    const unique = [...new Map(entities.map((e) => [entityPk(e), e])).values()];
    if (unique.length === 0) return new Map();
    const items = await consistentBatchGet(
      this.doc,
      this.table,
      unique.map((e) => ({ pk: entityPk(e), sk: NODE_SK })),
    );
    const now = Date.now();
    return new Map(
      items
        .filter((item) => !expiredItem(item, now))
        .map((item) => [String(item.pk), nodeFromItem(item as Item)]),
    );
  }

  async getNode(entity: Entity): Promise<StoredNode | undefined> {
    const items = await this.getMany(entityPk(entity), [NODE_SK]);
    const item = live(items.get(NODE_SK));
    return item ? nodeFromItem(item) : undefined;
  }

  /**
   * The entity types under which a normalised value is stored (gsi1), in type order. A type is
   * listed once even if both its value item and a legacy node carry the entry (a node rewritten by
   * a function still running the previous code during a deployment).
   */
  async typesOf(value: string): Promise<EntityType[]> {
    const result = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#gpk = :value',
        ExpressionAttributeNames: { '#gpk': GSI1.partitionKey, '#gsk': GSI1.sortKey },
        ExpressionAttributeValues: { ':value': valueIndexPk(value) },
        ProjectionExpression: '#gsk',
        Limit: 10,
      }),
    );
    return [...new Set((result.Items ?? []).map((item) => item[GSI1.sortKey]).filter(isEntityType))];
  }

  /**
   * IDs of the incidents or sessions recorded as evidence on the entity (its evidence markers), at
   * most `limit`, in ID order. One Query; the investigation tools use it to find the incidents that
   * mention an entity.
   */
  async evidenceIds(entity: Entity, kind: EvidenceKind, limit: number): Promise<string[]> {
    const prefix = `${EVIDENCE_PREFIX}${kind}#`;
    const result = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': entityPk(entity), ':prefix': prefix },
        ProjectionExpression: 'sk, expires_at_epoch',
        Limit: limit,
      }),
    );
    const now = Date.now();
    return (result.Items ?? [])
      .filter((item) => !expiredItem(item, now))
      .map((item) => String(item.sk).slice(prefix.length));
  }

  /**
   * One page of an entity's edge sides in key order (neighbour type, value, relationship), read
   * with one Query. `after` is the sort key the previous page ended on.
   */
  async neighbours(
    entity: Entity,
    options: { limit: number; after?: string | undefined; neighbourType?: EntityType | undefined },
  ): Promise<NeighbourPage> {
    const prefix = options.neighbourType ? `${EDGE_PREFIX}${options.neighbourType}#` : EDGE_PREFIX;
    const pk = entityPk(entity);
    const result = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
        // One more than asked, so the last page is known to be the last without an empty extra call.
        Limit: options.limit + 1,
        ...(options.after ? { ExclusiveStartKey: { pk, sk: options.after } } : {}),
      }),
    );
    // An edge past its retention is not a neighbour, though DynamoDB may not have deleted it yet.
    const now = Date.now();
    const items = (result.Items ?? []).filter((item) => !expiredItem(item, now));
    const page = items.slice(0, options.limit);
    const sides = page.map(sideFromItem);
    const more = items.length > options.limit;
    const last = page.at(-1)?.sk;
    return more && typeof last === 'string' ? { sides, next: last } : { sides };
  }
}

/**
 * Days the value item (gsi1) outlives its node's TTL, so it is rewritten at most once per this many
 * days of sightings instead of with every node write, and is never gone while its node is not.
 */
const VALUE_ITEM_SLACK_SECONDS = 30 * 86_400;

/**
 * Whether the value item's TTL must move with the node's new one, and the attributes that record
 * it: the node keeps the TTL its value item was last written with (`value_expires_at_epoch`).
 */
function valueItemTtl(
  node: Item | undefined,
  nodeTtl: number | undefined,
): { rewrite: boolean; onNode: Item; onItem: Item } {
  const written = node?.value_expires_at_epoch;
  // Kept forever now: a value item written with a TTL is rewritten without one.
  if (nodeTtl === undefined) return { rewrite: typeof written === 'number', onNode: {}, onItem: {} };
  if (typeof written === 'number' && written >= nodeTtl) {
    return { rewrite: false, onNode: { value_expires_at_epoch: written }, onItem: {} };
  }
  const valueTtl = nodeTtl + VALUE_ITEM_SLACK_SECONDS;
  return {
    rewrite: true,
    onNode: { value_expires_at_epoch: valueTtl },
    onItem: { expires_at_epoch: valueTtl },
  };
}

/** A cursor position must name an edge sort key; anything else is a tampered cursor. */
export function isEdgeSortKey(value: string): boolean {
  return value.startsWith(EDGE_PREFIX) && value.length <= 400;
}

export function graphRepositoryFromConfig(cfg: Config, doc: DynamoDBDocumentClient = documentClientFor(cfg)) {
  return new GraphRepository(doc, tableName(cfg, 'graph'));
}
