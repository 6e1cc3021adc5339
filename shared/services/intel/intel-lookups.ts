import type { Config } from '../../config';
import type { Entity } from '../../domain/core/entity';
import { SourceUnavailableError, ToolSkippedError } from '../../domain/core/errors';
import type { Tlp } from '../../domain/core/tlp';
import type { IntelLookup, IntelPort } from '../../domain/core/vocabulary';
import { sharedTlp } from '../../domain/graph/graph';
import { CIRCUIT_RULES, type CircuitStatus, circuitStatus, opensCircuit } from '../../domain/intel/circuit';
import {
  CONNECTOR_NAMES,
  CONNECTORS,
  type ConnectorDeclaration,
  type ConnectorName,
  isConnectorName,
} from '../../domain/intel/connectors';
import { howToEnableConnector, intelEnvPrefix } from '../../domain/intel/names';
import { logger } from '../../observability';
import { callProvider } from '../../platform/intel-http';
import { readIntelSecret } from '../../platform/intel-secret';
import { graphRepositoryFromConfig } from '../../store/graph-repository';
import { type IntelRepository, intelRepositoryFromConfig } from '../../store/intel-repository';
import { tenantKnowledgeReadsFromConfig } from '../../store/tenant-knowledge/tenant-knowledge-reads';
import { type ConnectorSettings, connectorSettings } from './connector-settings';

type Env = Record<string, unknown>;

/**
 * The connectors' runtime behind the `intel_*` tools: which connectors this deployment configured,
 * their keys (environment locally, the tenant's Secrets Manager secret on AWS), and per lookup the
 * circuit breaker, the cache, the daily quota with pacing, then the HTTP call. Keys never leave this
 * module except as the provider's auth header; logs name the connector and a status only.
 */

/** An answer's JSON above this many bytes is not cached (a DynamoDB item holds 400 KB in all). */
export const MAX_CACHED_ANSWER_BYTES = 350_000;

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export interface IntelLookupsDeps {
  cfg: Config;
  repo: IntelRepository;
  /** The knowledge graph's nodes, read for their TLP only (entityTlp). */
  nodes?: { getNode(entity: Entity): Promise<Parameters<typeof sharedTlp>[0] | undefined> };
  /** The tenant's "do not share" marks (TenantKnowledgeReads). */
  marks?: { isDoNotShare(entity: Entity): Promise<boolean> };
  now?: () => Date;
  fetchImpl?: typeof fetch;
}

export class IntelLookups implements IntelPort {
  private readonly settings: Record<ConnectorName, ConnectorSettings>;
  private readonly now: () => Date;
  private secretKeys: Promise<Record<string, string>> | undefined;

  constructor(private readonly deps: IntelLookupsDeps) {
    this.settings = connectorSettings(deps.cfg);
    this.now = deps.now ?? (() => new Date());
  }

  enabled(connector: string): boolean {
    return isConnectorName(connector) && this.settings[connector].enabled;
  }

  async entityTlp(entity: Entity): Promise<Tlp | undefined> {
    const node = await this.deps.nodes?.getNode(entity);
    return node ? sharedTlp(node) : undefined;
  }

  async doNotShare(entity: Entity): Promise<boolean> {
    return (await this.deps.marks?.isDoNotShare(entity)) ?? false;
  }

  async lookup(
    connector: string,
    entity: Entity,
    options: { signal: AbortSignal; refresh: boolean },
  ): Promise<IntelLookup> {
    if (!isConnectorName(connector) || !this.enabled(connector)) {
      throw new ToolSkippedError('This intelligence source is not configured.');
    }
    const declaration = CONNECTORS[connector];
    const settings = this.settings[connector];
    const { repo } = this.deps;
    const nowMs = this.now().getTime();

    if (!options.refresh) {
      const cached = await repo.getCached(connector, entity, nowMs);
      if (cached) {
        return {
          answer: { status: cached.status, body: cached.body },
          cached: true,
          age_seconds: Math.max(0, Math.round((nowMs - Date.parse(cached.fetched_at)) / 1000)),
        };
      }
    }

    const circuit = await repo.circuit(connector);
    const status = circuitStatus(circuit, nowMs);
    if (status === 'open') {
      throw new ToolSkippedError(
        `${declaration.title} failed ${circuit?.failures ?? CIRCUIT_RULES.failureThreshold} times in a row; not asked until ${new Date(circuit?.opened_until ?? nowMs).toISOString()} (circuit open).`,
      );
    }

    await this.takeQuota(declaration, settings, options.signal);
    const key = await this.keyFor(connector, settings);
    let answer: IntelLookup['answer'];
    try {
      answer = await callProvider(declaration.request(entity), {
        source: declaration.title,
        baseUrl: settings.baseUrl ?? '',
        keyHeader: declaration.keyHeader,
        key,
        answerStatuses: declaration.answerStatuses,
        timeoutMs: this.deps.cfg.SIS_INTEL_TIMEOUT_MS,
        retries: this.deps.cfg.SIS_INTEL_RETRIES,
        signal: options.signal,
        ...(this.deps.fetchImpl ? { fetchImpl: this.deps.fetchImpl } : {}),
      });
    } catch (error) {
      await this.recordFailure(connector, status, error);
      throw error;
    }
    // The provider answered: whatever happens to the cache now is ours, not the provider's, and
    // never counts towards its circuit.
    if (circuit && (circuit.failures > 0 || circuit.opened_until)) {
      await repo.closeCircuit(connector).catch((error: unknown) => {
        logger.warn('intel circuit close failed', { connector, error: error as Error });
      });
    }
    await this.cache(connector, entity, answer, declaration.cacheTtlSeconds);
    return { answer, cached: false, age_seconds: 0 };
  }

  /**
   * Keeps an answer for its TTL, unless it is too large for one item (DynamoDB's 400 KB, key and
   * attribute names included): such an answer is used once and asked again next time. A failed
   * cache write is logged and forgotten: the lookup has its answer.
   */
  private async cache(
    connector: ConnectorName,
    entity: Entity,
    answer: IntelLookup['answer'],
    ttlSeconds: number,
  ): Promise<void> {
    const bytes = Buffer.byteLength(JSON.stringify(answer.body));
    if (bytes > MAX_CACHED_ANSWER_BYTES) {
      logger.info('intel answer too large to cache', { connector, bytes });
      return;
    }
    try {
      await this.deps.repo.putCached(
        connector,
        entity,
        { ...answer, fetched_at: this.now().toISOString() },
        ttlSeconds,
      );
    } catch (error) {
      logger.warn('intel cache write failed', { connector, error: error as Error });
    }
  }

  private async takeQuota(
    declaration: ConnectorDeclaration,
    settings: ConnectorSettings,
    signal: AbortSignal,
  ): Promise<void> {
    for (;;) {
      const now = this.now();
      const outcome = await this.deps.repo.takeQuota(
        declaration.name,
        utcDay(now),
        settings.dailyQuota,
        declaration.minIntervalMs,
        now.getTime(),
      );
      if (outcome.ok) return;
      if (outcome.reason === 'exhausted') {
        throw new ToolSkippedError(
          `${declaration.title}'s daily quota (${settings.dailyQuota} lookups) is used up; it resets at 00:00 UTC.`,
        );
      }
      // Pacing: wait for the next slot while the tool has time; the engine's timeout aborts us.
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted)
          return reject(new ToolSkippedError(`${declaration.title} is paced; no slot in time.`));
        const timer = setTimeout(resolve, Math.min(outcome.waitMs, 5_000));
        signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      });
    }
  }

  private async keyFor(connector: ConnectorName, settings: ConnectorSettings): Promise<string | undefined> {
    if (settings.keySource === 'env') {
      return (this.deps.cfg as unknown as Env)[`${intelEnvPrefix(connector)}_API_KEY`] as string;
    }
    if (settings.keySource === 'secret') {
      this.secretKeys ??= readIntelSecret(this.deps.cfg).catch((error) => {
        this.secretKeys = undefined;
        throw error;
      });
      const key = (await this.secretKeys)[connector];
      if (!key) throw new ToolSkippedError('This intelligence source has no key in the connectors secret.');
      return key;
    }
    return undefined;
  }

  private async recordFailure(
    connector: ConnectorName,
    previous: CircuitStatus,
    error: unknown,
  ): Promise<void> {
    const at = this.now();
    const reason = error instanceof SourceUnavailableError ? error.message : 'failed';
    try {
      const failures = await this.deps.repo.recordFailure(connector, at.toISOString(), reason);
      if (opensCircuit(failures, previous)) {
        await this.deps.repo.openCircuit(connector, at.getTime() + CIRCUIT_RULES.openMs);
      }
    } catch (storeError) {
      logger.warn('intel circuit update failed', { connector, error: storeError as Error });
    }
    logger.warn('intel lookup failed', { connector, reason });
  }
}

// ---- The admin view ----

export interface ConnectorView {
  name: ConnectorName;
  title: string;
  tool: string;
  enabled: boolean;
  entity_types: string[];
  max_tlp: Tlp;
  cache_ttl_seconds: number;
  quota: { used_today: number; daily_limit: number; min_interval_ms: number };
  circuit: { state: CircuitStatus; consecutive_failures: number; open_until: string | null };
  last_error_at: string | null;
  last_error: string | null;
  /** How an operator turns it on (null once it is on). */
  how_to_enable: string | null;
}

/** Every connector with its settings and today's state; read-only, never a key. */
export async function listConnectors(
  cfg: Config,
  repo: IntelRepository,
  now = new Date(),
): Promise<ConnectorView[]> {
  const settings = connectorSettings(cfg);
  const day = utcDay(now);
  return Promise.all(
    CONNECTOR_NAMES.map(async (name) => {
      const declaration = CONNECTORS[name];
      const enabled = settings[name].enabled;
      const [usage, circuit] = enabled
        ? await Promise.all([repo.quotaUsage(name, day), repo.circuit(name)])
        : [{ used: 0 }, undefined];
      return {
        name,
        title: declaration.title,
        tool: `intel_${name}`,
        enabled,
        entity_types: [...declaration.entityTypes],
        max_tlp: declaration.maxTlp,
        cache_ttl_seconds: declaration.cacheTtlSeconds,
        quota: {
          used_today: usage.used,
          daily_limit: settings[name].dailyQuota,
          min_interval_ms: declaration.minIntervalMs,
        },
        circuit: {
          state: circuitStatus(circuit, now.getTime()),
          consecutive_failures: circuit?.failures ?? 0,
          open_until: circuit?.opened_until ? new Date(circuit.opened_until).toISOString() : null,
        },
        last_error_at: circuit?.last_error_at ?? null,
        last_error: circuit?.last_error ?? null,
        how_to_enable: enabled ? null : howToEnableConnector(name),
      };
    }),
  );
}

/**
 * Which connectors this deployment configured, without their runtime: planning a run (which tools
 * to run) reads the settings only, never a key, the cache or a quota.
 */

export function intelLookupsFromConfig(
  cfg: Config,
  doc?: Parameters<typeof intelRepositoryFromConfig>[1],
): IntelLookups {
  return new IntelLookups({
    cfg,
    repo: intelRepositoryFromConfig(cfg, doc),
    nodes: graphRepositoryFromConfig(cfg, doc),
    marks: tenantKnowledgeReadsFromConfig(cfg, doc),
  });
}
