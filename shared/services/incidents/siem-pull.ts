import { config, perConfiguration } from '../../config';
import { ConflictError, DomainError, ValidationError } from '../../domain/core/errors';
import type { NormalisedIncident } from '../../domain/incidents/incident';
import {
  mapSiemRecord,
  pullWindow,
  SIEM_FORMATS,
  type SiemFormat,
  type SiemMappingOptions,
  watermarkAfter,
} from '../../domain/siem';
import { logger } from '../../observability';
import type { IncidentQueue } from '../../platform/incident-queue';
import { configuredConnectors, createSiemClient, type SiemClient } from '../../platform/siem-clients';
import {
  type ConnectorStateRepository,
  connectorStateRepositoryFromConfig,
} from '../../store/connector-state-repository';
import { incidentQueue } from './incident-ingest';

/**
 * One scheduled SIEM pull (EventBridge Scheduler on AWS, an interval in the local runtime) of the
 * connector named, or of every configured connector when none is. A failing connector does not stop
 * the others; the run fails (and is retried) if any failed.
 */
export async function pullSiemConnectors(named?: unknown): Promise<PullResult[]> {
  const cfg = config();
  const wanted = SIEM_FORMATS.find((format): format is SiemFormat => format === named);
  if (named !== undefined && !wanted)
    throw new ValidationError(`Unknown connector ${JSON.stringify(named)}.`);
  const connectors = configuredConnectors(cfg).filter((c) => !wanted || c.format === wanted);
  const mapping = cfg.SIS_SIEM_SPLUNK_WEB_URL ? { splunk: { webUrl: cfg.SIS_SIEM_SPLUNK_WEB_URL } } : {};
  const results: PullResult[] = [];
  let failures = 0;
  for (const settings of connectors) {
    try {
      const client = await createSiemClient(settings, cfg);
      const result = await pullConnector({
        client,
        state: connectorState(),
        queue: incidentQueue(),
        mapping,
      });
      logger.info('SIEM pull finished', { ...result });
      results.push(result);
    } catch (error) {
      failures++;
      logger.error('SIEM pull failed', { connector: settings.format, error: error as Error });
    }
  }
  if (failures > 0) throw new Error(`${failures} SIEM connector run(s) failed.`);
  return results;
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

/** The pull connectors' state of this process (one per cold start; rebuilt when tests reset the config). */
const stateOf = /* @__PURE__ */ perConfiguration(
  (cfg): ConnectorStateRepository => connectorStateRepositoryFromConfig(cfg),
);

export function connectorState(): ConnectorStateRepository {
  return stateOf();
}
