import { perConfiguration } from '../../config';
import { normaliseIngestBatch, type SiemFormat, type SiemMappingOptions } from '../../domain/siem';
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

/** The incident queue of this process (one client per cold start; rebuilt when tests reset the config). */
const queueOf = /* @__PURE__ */ perConfiguration((cfg): IncidentQueue => incidentQueueFromConfig(cfg));

export function incidentQueue(): IncidentQueue {
  return queueOf();
}
