import { type Entity, entityKey } from '../core/entity';
import { isTerminal, type SessionStatus } from '../core/session-status';
import type { Verdict } from '../core/vocabulary';
import type { AutoInvestigateLevel } from './auto-investigate-levels';
import { type NormalisedIncident, SEVERITIES, type Severity } from './incident';

/**
 * Incidents investigated as they arrive (docs/soar.md): an incident at or above the deployment's
 * severity (SIS_AUTO_INVESTIGATE_SEVERITY) that arrives by a push or a pull has each of its first
 * 20 entities investigated, each entity at most once per 24 h whatever incident names it, by the
 * system principal below. When every one of those sessions has ended, `incident.enriched` fires once.
 */

export const MAX_AUTO_INVESTIGATED_ENTITIES = 20;
/** An entity investigated by the system principal is not investigated again for this long. */
export const AUTO_INVESTIGATION_WINDOW_SECONDS = 24 * 3600;

/** The name the system principal's sessions record as their starter (its ID is SYSTEM_OWNER_ID). */
export const AUTO_INVESTIGATION_NAME = 'auto-investigation';

/** Whether the incident, as it arrived, is to be investigated (demo data never is: it did not arrive). */
export function qualifiesForAutoInvestigation(
  incident: Pick<NormalisedIncident, 'severity' | 'origin'>,
  level: AutoInvestigateLevel,
): boolean {
  if (level === 'off') return false;
  const kind = incident.origin?.kind;
  if (kind !== 'push' && kind !== 'pull') return false;
  return SEVERITIES.indexOf(incident.severity as Severity) >= SEVERITIES.indexOf(level);
}

/** The entities investigated for an incident: its first 20 distinct ones. */
export function autoInvestigatedEntities(incident: Pick<NormalisedIncident, 'entities'>): Entity[] {
  const distinct = new Map<string, Entity>();
  for (const entity of incident.entities) distinct.set(entityKey(entity), entity);
  return [...distinct.values()].slice(0, MAX_AUTO_INVESTIGATED_ENTITIES);
}

/** What an incident knows of one entity's investigation. */
export interface EntityInvestigation {
  entity: Entity;
  session_id: string;
  status: SessionStatus;
  verdict?: Verdict;
  risk_score?: number;
}

/**
 * Whether `incident.enriched` is due now: every entity to investigate has its session and every
 * session has ended, and it has not fired yet (the store records the firing with a condition, so
 * two consumers that both find it due fire it once).
 */
export function enrichmentDue(
  entities: readonly Entity[],
  investigations: readonly EntityInvestigation[],
  alreadyEnriched: boolean,
): boolean {
  if (alreadyEnriched || entities.length === 0) return false;
  const byEntity = new Map(investigations.map((i) => [entityKey(i.entity), i]));
  return entities.every((entity) => {
    const investigation = byEntity.get(entityKey(entity));
    return investigation !== undefined && isTerminal(investigation.status);
  });
}

export type InvestigatedEntity = Entity &
  Partial<Pick<EntityInvestigation, 'session_id' | 'verdict' | 'risk_score'>>;

/** The incident's entities with their investigation's session, verdict and risk score where known. */
export function entitiesWithInvestigations(
  entities: readonly Entity[],
  investigations: readonly EntityInvestigation[] = [],
): InvestigatedEntity[] {
  const byEntity = new Map(investigations.map((i) => [entityKey(i.entity), i]));
  return entities.map((entity) => {
    const found = byEntity.get(entityKey(entity));
    if (!found) return entity;
    return {
      ...entity,
      session_id: found.session_id,
      ...(found.verdict !== undefined ? { verdict: found.verdict } : {}),
      ...(found.risk_score !== undefined ? { risk_score: found.risk_score } : {}),
    };
  });
}
