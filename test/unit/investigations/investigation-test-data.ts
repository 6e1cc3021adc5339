import { type Entity, entityKey } from '../../../shared/domain/core/entity';
import type {
  IncidentSummary,
  InvestigationData,
  Neighbour,
  PriorInvestigation,
  TenantKnowledge,
  ToolContext,
} from '../../../shared/domain/investigation';
import type { OfflineIntel } from '../../../shared/domain/investigation/tools/enrichment';
import type { NameDataSource } from '../../../shared/domain/names/name-data';
import { openOfflineIntel } from '../../../shared/platform/offline-intel';
import { localDataDir } from '../../../shared/platform/offline-intel-build';

/**
 * An in-memory InvestigationData for unit tests of the pure domain: the same port the store
 * implements over DynamoDB (covered by integration tests), filled with plain arrays here.
 */
export const NOW = new Date('2026-11-20T12:00:00.000Z');

export function daysAgo(days: number): string {
  return new Date(NOW.getTime() - days * 86_400_000).toISOString();
}

export interface TestData {
  incidents?: IncidentSummary[];
  priors?: Record<string, PriorInvestigation[]>;
  neighbours?: Record<string, Neighbour[]>;
  /** Tenant knowledge by entity key (allowlist matches and feedback). */
  knowledge?: Record<string, Partial<TenantKnowledge>>;
}

export function memoryData(data: TestData = {}): InvestigationData & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async incidentsMentioning(entity: Entity, limit: number) {
      calls.push(`incidents ${entityKey(entity)} ${limit}`);
      return (data.incidents ?? [])
        .filter((i) => (i.entities ?? []).some((e) => e.type === entity.type && e.value === entity.value))
        .slice(0, limit);
    },
    async priorInvestigations(entity: Entity, limit: number) {
      calls.push(`priors ${entityKey(entity)} ${limit}`);
      return (data.priors?.[entityKey(entity)] ?? []).slice(0, limit);
    },
    async neighbourhood(entity: Entity, limit: number) {
      calls.push(`neighbours ${entityKey(entity)} ${limit}`);
      return (data.neighbours?.[entityKey(entity)] ?? []).slice(0, limit);
    },
    async tenantKnowledge(entity: Entity) {
      calls.push(`knowledge ${entityKey(entity)}`);
      const known = data.knowledge?.[entityKey(entity)];
      return { allowlist: known?.allowlist ?? [], feedback: known?.feedback ?? [] };
    },
  };
}

let offline: (OfflineIntel & NameDataSource) | undefined;

/**
 * The offline data the local runtime builds (test/support/offline-data-global-setup.ts builds it once):
 * domain_analysis reads its brand catalogue, confusables and word list from it.
 */
export function offlineData(): OfflineIntel & NameDataSource {
  offline ??= openOfflineIntel(localDataDir());
  return offline;
}

/** A context with the offline data, for investigations of domains. */
export function domainContext(data: TestData = {}, extra: Partial<ToolContext> = {}): ToolContext {
  return context(data, { offline: offlineData(), ...extra });
}

export function context(data: TestData = {}, extra: Partial<ToolContext> = {}): ToolContext {
  return { data: memoryData(data), now: () => NOW, ...extra };
}

export function incident(
  id: string,
  severity: IncidentSummary['severity'],
  ageDays: number,
  entities: Entity[],
  status = 'active',
): IncidentSummary {
  return {
    incident_id: id,
    title: `Incident ${id}`,
    severity,
    status,
    created_at: daysAgo(ageDays),
    entities,
  };
}
