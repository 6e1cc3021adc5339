import type { Entity, EntityType } from '../domain/core/entity';
import { isTlp, type Tlp } from '../domain/core/tlp';
import type { RiskBasisEntry } from '../domain/core/vocabulary';
import {
  type Direction,
  type EdgeSide,
  type EntityNode,
  type NodeObservation,
  type Relationship,
  sidedEdgeFacts,
} from '../domain/graph/graph';
import { GSI1 } from './tables';

/**
 * The graph table's item layout: keys of nodes, edges, evidence and the value index, and the
 * conversion between items and the domain's nodes and edge sides (graph-repository.ts writes them).
 */

export const NODE_SK = 'NODE';
export const VALUE_SK = 'VALUE';
export const EDGE_PREFIX = 'EDGE#';
export const EVIDENCE_PREFIX = 'EVIDENCE#';

export const entityPk = (entity: Entity) => `ENTITY#${entity.type}#${entity.value}`;
export const valueIndexPk = (value: string) => `VALUE#${value}`;
/**
 * Type and relationship/direction are fixed vocabularies without `#`, so the key is unambiguous
 * even when a user name contains `#`.
 */
export const edgeSk = (side: Pick<EdgeSide, 'other' | 'relationship' | 'direction'>) =>
  `${EDGE_PREFIX}${side.other.type}#${side.other.value}#${side.relationship}#${side.direction}`;
export const evidenceSk = (evidence: Pick<EvidenceRef, 'id' | 'kind'>) =>
  `${EVIDENCE_PREFIX}${evidence.kind}#${evidence.id}`;

export type EvidenceKind = NodeObservation['kind'];

export interface EvidenceRef {
  /** incident_id or session_id. */
  id: string;
  kind: EvidenceKind;
  /** When the evidence observed the entities (incident created_at, session completion). */
  at: string;
  /** The session's TLP: every node the evidence writes keeps the highest level it was written at. */
  tlp?: Tlp;
}

export interface StoredNode extends EntityNode {}

export type Item = Record<string, unknown>;

export function riskBasisFromItem(raw: unknown[]): RiskBasisEntry[] {
  return raw
    .filter((e): e is Item => typeof e === 'object' && e !== null)
    .map((e) => ({
      source: String(e.source),
      score: Number(e.score ?? 0),
      refs: Array.isArray(e.refs) ? e.refs.map(String) : [],
    }));
}

export function nodeFromItem(item: Item): StoredNode {
  const node: StoredNode = {
    type: item.entity_type as EntityType,
    value: String(item.value),
    first_seen: String(item.first_seen),
    last_seen: String(item.last_seen),
    incident_count: Number(item.incident_count ?? 0),
    investigation_count: Number(item.investigation_count ?? 0),
  };
  if (typeof item.risk_score === 'number') node.risk_score = item.risk_score;
  if (typeof item.risk_scored_at === 'string') node.risk_scored_at = item.risk_scored_at;
  if (isTlp(item.tlp)) node.tlp = item.tlp;
  if (item.named_outside_red === true) node.named_outside_red = true;
  if (Array.isArray(item.risk_basis)) node.risk_basis = riskBasisFromItem(item.risk_basis);
  return node;
}

export function sideFromItem(item: Item): EdgeSide {
  return {
    self: { type: item.self_type as EntityType, value: String(item.self_value) },
    other: { type: item.other_type as EntityType, value: String(item.other_value) },
    relationship: item.relationship as Relationship,
    direction: item.direction as Direction,
    first_seen: String(item.first_seen),
    last_seen: String(item.last_seen),
    count: Number(item.count ?? 0),
    evidence: Array.isArray(item.evidence) ? item.evidence.map(String) : [],
  };
}

/** The stored form of one edge side (also for bulk seeding by tooling and benchmarks). */
export function sideItem(side: EdgeSide, version = 1): Item {
  return {
    pk: entityPk(side.self),
    sk: edgeSk(side),
    self_type: side.self.type,
    self_value: side.self.value,
    other_type: side.other.type,
    other_value: side.other.value,
    ...sidedEdgeFacts(side),
    version,
  };
}

/** The node item alone; `nodeItems` is the stored form of a node. */
export function nodeItem(node: StoredNode, version: number): Item {
  return {
    pk: entityPk(node),
    sk: NODE_SK,
    entity_type: node.type,
    value: node.value,
    first_seen: node.first_seen,
    last_seen: node.last_seen,
    incident_count: node.incident_count,
    investigation_count: node.investigation_count,
    ...(node.risk_score !== undefined
      ? { risk_score: node.risk_score, risk_scored_at: node.risk_scored_at }
      : {}),
    ...(node.tlp ? { tlp: node.tlp } : {}),
    ...(node.named_outside_red ? { named_outside_red: true } : {}),
    ...(node.risk_basis ? { risk_basis: node.risk_basis } : {}),
    version,
  };
}

/** The entity's entry in the value index (gsi1): keys only, it never changes once written. */
export function valueItem(entity: Entity): Item {
  return {
    pk: entityPk(entity),
    sk: VALUE_SK,
    [GSI1.partitionKey]: valueIndexPk(entity.value),
    [GSI1.sortKey]: entity.type,
  };
}

/** The stored form of a node, its node and value items (for bulk seeding by tooling and benchmarks). */
export function nodeItems(node: StoredNode, version = 1): Item[] {
  return [nodeItem(node, version), valueItem(node)];
}

/** A node written before the value item existed: its gsi1 entry is on the node item itself. */
export function isLegacyIndexedNode(item: Item): boolean {
  return item[GSI1.partitionKey] !== undefined;
}
