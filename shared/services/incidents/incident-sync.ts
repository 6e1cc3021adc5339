import { perConfiguration } from '../../config';
import { ConflictError, DomainError, ValidationError } from '../../domain/core/errors';
import { edgesFromIncident } from '../../domain/graph/graph';
import type { NormalisedIncident } from '../../domain/incidents/incident';
import { assertIncident } from '../../domain/incidents/incident-input';
import {
  mapSiemRecord,
  normaliseIngestBatch,
  pullWindow,
  type SiemFormat,
  type SiemMappingOptions,
  watermarkAfter,
} from '../../domain/siem';
import { METRIC } from '../../metric-names';
import { countMetric, logger } from '../../observability';
import {
  INCIDENT_MESSAGE_VERSION,
  type IncidentQueue,
  incidentQueueFromConfig,
} from '../../platform/incident-queue';
import type { SiemClient } from '../../platform/siem-clients';
import {
  type ConnectorStateRepository,
  connectorStateRepositoryFromConfig,
} from '../../store/connector-state-repository';
import { documentClientFor } from '../../store/dynamo-client';
import { type GraphRepository, graphRepositoryFromConfig } from '../../store/graph-repository';
import {
  type IncidentsRepository,
  incidentsRepositoryFromConfig,
  type UpsertOutcome,
} from '../../store/incidents-repository';
import * as z from '../../zod';

/**
 * SIEM incident sync: every source (the push endpoint, the pull connectors, the demo loader) puts
 * normalised incidents on the queue; one consumer stores them and links their entities in the
 * knowledge graph. Both consumer steps are idempotent, so SQS's at-least-once delivery and retries
 * after a partial failure never duplicate an incident or double-count the graph.
 */

export interface IngestResult {
  accepted: number;
  rejected: number;
  errors: { index: number; message: string }[];
}

/** POST /incidents/ingest: normalise each record on its own, enqueue the good ones. */
export async function ingestIncidents(
  queue: IncidentQueue,
  body: { format?: SiemFormat | undefined; incidents: readonly unknown[] },
  options: SiemMappingOptions = {},
): Promise<IngestResult> {
  const outcome = normaliseIngestBatch(body, options);
  if (outcome.incidents.length > 0) await queue.enqueue(outcome.incidents);
  countMetric(METRIC.incidentsAccepted, outcome.incidents.length);
  countMetric(METRIC.incidentsRejected, outcome.errors.length);
  return {
    accepted: outcome.incidents.length,
    rejected: outcome.errors.length,
    errors: outcome.errors.map(({ index, message }) => ({ index, message })),
  };
}

const incidentMessage = /* @__PURE__ */ (() =>
  z.object({
    v: z.literal(INCIDENT_MESSAGE_VERSION),
    incident: z.looseObject({ source_url: z.optional(z.string()) }),
  }))();

/** A message that can never be stored: redelivery cannot help, so it ends in the DLQ. */
export class PoisonMessageError extends Error {
  override readonly name = 'PoisonMessageError';
}

/**
 * Parses a queue message and validates the incident again with the same rules as the push
 * endpoint (the queue is a trust boundary too).
 */
export function decodeIncidentMessage(body: string): NormalisedIncident {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new PoisonMessageError('The message body is not JSON.');
  }
  const message = incidentMessage.safeParse(parsed);
  if (!message.success) throw new PoisonMessageError('The message is not an incident message (v1).');
  const { source_url, ...rest } = message.data.incident;
  try {
    return assertIncident({ ...rest, ...(source_url ? { url: source_url } : {}) });
  } catch (error) {
    if (error instanceof ValidationError) throw new PoisonMessageError(error.message);
    throw error;
  }
}

export interface SyncStores {
  incidents: IncidentsRepository;
  graph: GraphRepository;
}

/**
 * Stores one incident and links its entities: the incident is upserted (an older copy is refused),
 * then every entity is counted once for it and its entities are linked pairwise. A failure after
 * the upsert is safe to retry: the upsert of the same copy succeeds again and the graph records
 * only what it has not recorded for this incident yet.
 */
export async function storeIncident(
  stores: SyncStores,
  incident: NormalisedIncident,
): Promise<UpsertOutcome> {
  const outcome = await stores.incidents.upsert(incident);
  if (outcome === 'stale') return outcome;
  await stores.graph.record(
    { id: incident.incident_id, kind: 'incident', at: incident.created_at },
    incident.entities.map((entity) => ({ entity, kind: 'incident' as const, at: incident.created_at })),
    edgesFromIncident(incident),
  );
  return outcome;
}

/** The consumer's per-record step. */
export async function processIncidentMessage(stores: SyncStores, body: string): Promise<UpsertOutcome> {
  return storeIncident(stores, decodeIncidentMessage(body));
}

export interface PullDeps {
  client: SiemClient;
  state: ConnectorStateRepository;
  queue: IncidentQueue;
  mapping?: SiemMappingOptions;
  now?: () => Date;
  /** Records one run reads at most; the rest waits for the next run. */
  maxRecords?: number;
}

export interface PullResult {
  connector: SiemFormat;
  window: { from: string; to: string };
  fetched: number;
  enqueued: number;
  skipped: number;
  completed: boolean;
  watermark: string;
}

/**
 * One run of a pull connector: read the window after the stored watermark (with an overlap, since
 * SIEMs index late), map every record, enqueue, then advance the watermark. Nothing is advanced
 * unless the enqueue succeeded, so a failed run is simply repeated by the next one.
 */
export async function pullConnector(deps: PullDeps): Promise<PullResult> {
  const connector = deps.client.format;
  const now = deps.now?.() ?? new Date();
  const previous = await deps.state.get(connector);
  const window = pullWindow(previous.watermark, now);
  let fetched: Awaited<ReturnType<SiemClient['fetchWindow']>>;
  try {
    fetched = await deps.client.fetchWindow(window, deps.maxRecords ?? 500);
  } catch (error) {
    await saveFailure(deps.state, previous, now, error);
    throw error;
  }
  const incidents: NormalisedIncident[] = [];
  let skipped = 0;
  for (const record of fetched.records) {
    try {
      incidents.push(mapSiemRecord(connector, record, deps.mapping));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      skipped++;
      logger.warn('SIEM record skipped', { connector, reason: error.message.slice(0, 300) });
    }
  }
  if (incidents.length > 0) await deps.queue.enqueue(incidents);
  const watermark = watermarkAfter({
    previous: previous.watermark,
    window,
    completed: fetched.completed,
    processed: incidents,
  });
  await deps.state.save(previous, {
    watermark,
    last_run_at: now.toISOString(),
    last_run_outcome: 'ok',
    last_run_enqueued: incidents.length,
  });
  return {
    connector,
    window,
    fetched: fetched.records.length,
    enqueued: incidents.length,
    skipped,
    completed: fetched.completed,
    watermark,
  };
}

async function saveFailure(
  state: ConnectorStateRepository,
  previous: Awaited<ReturnType<ConnectorStateRepository['get']>>,
  now: Date,
  error: unknown,
): Promise<void> {
  try {
    const { version: _version, connector: _connector, ...kept } = previous;
    await state.save(previous, {
      ...kept,
      last_run_at: now.toISOString(),
      last_run_outcome: 'failed',
      last_error: (error instanceof Error ? error.message : 'unknown error').slice(0, 500),
    });
  } catch (saveError) {
    if (!(saveError instanceof ConflictError)) throw saveError;
  }
}

/**
 * The sync's stores and clients of this process (one per cold start; rebuilt when tests reset the
 * config). The queue and the connector state are built on first use: the consumer needs neither.
 */
const syncContext = /* @__PURE__ */ perConfiguration((cfg) => {
  const doc = documentClientFor(cfg);
  let queue: IncidentQueue | undefined;
  let state: ConnectorStateRepository | undefined;
  return {
    stores: {
      incidents: incidentsRepositoryFromConfig(cfg, doc),
      graph: graphRepositoryFromConfig(cfg, doc),
    },
    queue: () => (queue ??= incidentQueueFromConfig(cfg)),
    state: () => (state ??= connectorStateRepositoryFromConfig(cfg)),
  };
});

/** The consumer's stores (one document client per cold start). */
export function syncStores(): SyncStores {
  return syncContext().stores;
}

export function incidentQueue(): IncidentQueue {
  return syncContext().queue();
}

export function connectorState(): ConnectorStateRepository {
  return syncContext().state();
}
