import { type Config, perConfiguration } from '../../config';
import { ValidationError } from '../../domain/core/errors';
import {
  normaliseIngestBatch,
  type PushGuard,
  SIEM_FORMATS,
  type SiemFormat,
  type SiemMappingOptions,
} from '../../domain/siem';
import { METRIC } from '../../metric-names';
import { countMetric } from '../../observability';
import { type IncidentQueue, incidentQueueFromConfig } from '../../platform/incident-queue';

/**
 * Incidents into the sync's queue: the push endpoint's batch (normalised record by record) and the
 * queue every producer sends to (the push endpoint, the pull connectors, the demo loader). The
 * consumer that stores them is incident-sync.ts; nothing here touches a table.
 */

export interface IngestResult {
  accepted: number;
  rejected: number;
  errors: { index: number; message: string }[];
}

/**
 * POST /incidents/ingest: normalise each record on its own, enqueue the good ones, each stamped with
 * the pushing key. A record of a source this deployment pulls, or dated more than 5 minutes ahead,
 * is refused like an invalid one; a batch of which nothing is accepted is a 400 naming the fields.
 */
export async function ingestIncidents(
  queue: IncidentQueue,
  body: { format?: SiemFormat | undefined; incidents: readonly unknown[] },
  options: SiemMappingOptions,
  guard: PushGuard,
): Promise<IngestResult> {
  const outcome = normaliseIngestBatch(body, options, guard);
  countMetric(METRIC.incidentsRejected, outcome.errors.length);
  if (outcome.incidents.length === 0 && outcome.errors.length > 0) {
    const details = outcome.errors.flatMap(({ index, message, details: problems }) =>
      (problems ?? [{ path: '(incident)', message }]).map((p) => ({
        path: `incidents.${index}.${p.path}`,
        message: p.message,
      })),
    );
    const summary = details
      .slice(0, 5)
      .map((d) => `${d.path}: ${d.message}`)
      .join('; ');
    throw new ValidationError(`No incident accepted. ${summary}`.slice(0, 1000), details.slice(0, 100));
  }
  if (outcome.incidents.length > 0) await queue.enqueue(outcome.incidents);
  countMetric(METRIC.incidentsAccepted, outcome.incidents.length);
  return {
    accepted: outcome.incidents.length,
    rejected: outcome.errors.length,
    errors: outcome.errors.map(({ index, message }) => ({ index, message })),
  };
}

/** The sources this deployment pulls (a SIEM's URL is configured): pushes may not touch them. */
export function pulledSources(cfg: Config): SiemFormat[] {
  const urls: Record<SiemFormat, string | undefined> = {
    sentinel: cfg.SIS_SIEM_SENTINEL_URL,
    splunk: cfg.SIS_SIEM_SPLUNK_URL,
    elastic: cfg.SIS_SIEM_ELASTIC_URL,
  };
  return SIEM_FORMATS.filter((format) => Boolean(urls[format]));
}

/** The incident queue of this process (one client per cold start; rebuilt when tests reset the config). */
const queueOf = /* @__PURE__ */ perConfiguration((cfg): IncidentQueue => incidentQueueFromConfig(cfg));

export function incidentQueue(): IncidentQueue {
  return queueOf();
}
