import type { Entity } from '../domain/core/entity';
import type {
  IncidentSummary,
  InvestigationData,
  Neighbour,
  PriorInvestigation,
  TenantKnowledge,
  Verdict,
} from '../domain/core/vocabulary';
import { VERDICTS } from '../domain/core/vocabulary';
import { sharedTlp } from '../domain/graph/graph';
import { incidentLink } from '../domain/incidents/incident';
import { matchingEntries } from '../domain/tenant-knowledge/allowlist';
import { isCriticalAssetType } from '../domain/tenant-knowledge/critical-assets';
import type { GraphRepository } from './graph-repository';
import type { IncidentsRepository } from './incidents-repository';
import type { VerdictsRepository } from './sessions/verdicts-repository';
import type { TenantKnowledgeReads } from './tenant-knowledge/tenant-knowledge-reads';

/**
 * The investigation tools' read port (domain `InvestigationData`) over the stores:
 *
 * - incidents mentioning an entity: the graph keeps one evidence marker per (entity, incident); the
 *   marked incidents are read by ID and the newest returned. Marker IDs are hashes, not times, so
 *   up to MAX_MARKERS are read to pick the newest: an entity in more incidents than that gets a
 *   sample, which the incident_history tool still scores (a dedicated by-entity index in the
 *   incidents table would make it exact).
 * - prior investigations: the sessions table's per-subject verdict index, newest first, one Query.
 * - neighbourhood: the entity's edge sides (one Query), each neighbour's stored node for its risk
 *   and what that risk rests on.
 * - tenant knowledge: the allowlist partition (one Query, matched here) and the entity's feedback.
 */
const MAX_MARKERS = 100;
const READ_CONCURRENCY = 10;

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}

export interface InvestigationDataStores {
  graph: GraphRepository;
  incidents: IncidentsRepository;
  verdicts: VerdictsRepository;
  knowledge: TenantKnowledgeReads;
  publicUrl: string;
  /** For allowlist expiry; the system clock by default. */
  now?: () => Date;
}

export function investigationData(stores: InvestigationDataStores): InvestigationData {
  return {
    async incidentsMentioning(entity: Entity, limit: number): Promise<IncidentSummary[]> {
      const ids = await stores.graph.evidenceIds(entity, 'incident', MAX_MARKERS);
      const incidents = await mapLimited(ids, READ_CONCURRENCY, (id) => stores.incidents.get(id));
      return incidents
        .filter((incident) => incident !== undefined)
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
        .slice(0, limit)
        .map((incident) => ({
          incident_id: incident.incident_id,
          title: incident.title,
          severity: incident.severity,
          status: incident.status,
          created_at: incident.created_at,
          link: incidentLink(stores.publicUrl, incident.incident_id),
          entities: incident.entities,
        }));
    },

    async priorInvestigations(entity: Entity, limit: number): Promise<PriorInvestigation[]> {
      const verdicts = await stores.verdicts.forSubject(entity, limit);
      return verdicts.map((v) => ({
        session_id: v.session_id,
        verdict: (VERDICTS as readonly string[]).includes(v.verdict) ? (v.verdict as Verdict) : null,
        risk_score: Number.isFinite(v.risk_score) ? v.risk_score : null,
        completed_at: v.completed_at,
      }));
    },

    async neighbourhood(entity: Entity, limit: number): Promise<Neighbour[]> {
      const { sides } = await stores.graph.neighbours(entity, { limit });
      return mapLimited(sides, READ_CONCURRENCY, async (side) => {
        const node = await stores.graph.getNode(side.other);
        return {
          entity: side.other,
          relationship: side.relationship,
          direction: side.direction,
          last_seen: side.last_seen,
          count: side.count,
          evidence: side.evidence,
          ...(node?.risk_score !== undefined ? { risk_score: node.risk_score } : {}),
          ...(node?.tlp ? { tlp: sharedTlp(node) ?? node.tlp } : {}),
          ...(node?.risk_basis ? { risk_basis: node.risk_basis } : {}),
        };
      });
    },

    async tenantKnowledge(entity: Entity): Promise<TenantKnowledge> {
      // Only hosts and users can be critical assets: one GetItem for them, none for IPs and domains.
      const [entries, feedback, asset] = await Promise.all([
        stores.knowledge.listEntries(),
        stores.knowledge.feedbackFor(entity),
        isCriticalAssetType(entity.type) ? stores.knowledge.criticalAsset(entity) : undefined,
      ]);
      return {
        allowlist: matchingEntries(entries, entity, (stores.now ?? (() => new Date()))()),
        feedback,
        ...(asset
          ? { critical_asset: { criticality: asset.criticality, owner: asset.owner, reason: asset.reason } }
          : {}),
      };
    },
  };
}
