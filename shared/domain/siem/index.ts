import { DomainError, type ErrorDetail, ValidationError } from '../core/errors';
import { INCIDENT_LIMITS, type NormalisedIncident } from '../incidents/incident';
import { normaliseIncident } from '../incidents/incident-input';
import { mapElasticAlert } from './elastic';
import type { SiemFormat } from './formats';
import { mapSentinelIncident } from './sentinel';
import { mapSplunkNotable, type SplunkMappingOptions } from './splunk';

export { elasticAlertQuery, mapElasticAlert, severityFromRiskScore } from './elastic';
export { SIEM_FORMATS, type SiemFormat } from './formats';
export { mapSentinelIncident, SENTINEL_API_VERSION, sentinelListParams } from './sentinel';
export { mapSplunkNotable, splunkIncidentReviewUrl, splunkNotableSearch, splunkStatus } from './splunk';

export interface SiemMappingOptions {
  splunk?: SplunkMappingOptions;
}

/** Maps one native SIEM record to a normalised incident; throws ValidationError when it is malformed. */
export function mapSiemRecord(
  format: SiemFormat,
  record: unknown,
  options: SiemMappingOptions = {},
): NormalisedIncident {
  switch (format) {
    case 'sentinel':
      return mapSentinelIncident(record);
    case 'splunk':
      return mapSplunkNotable(record, options.splunk);
    case 'elastic':
      return mapElasticAlert(record);
  }
}

/**
 * The records inside a vendor's list answer: Sentinel's `{value: [...]}`, Splunk's
 * `{results: [...]}`, an Elasticsearch `{hits: {hits: [...]}}`. A bare array passes through.
 */
export function recordsFromResponse(format: SiemFormat, response: unknown): unknown[] {
  if (Array.isArray(response)) return response;
  const body = (response ?? {}) as Record<string, unknown>;
  const list =
    format === 'sentinel'
      ? body.value
      : format === 'splunk'
        ? body.results
        : (body.hits as Record<string, unknown> | undefined)?.hits;
  if (!Array.isArray(list)) {
    throw new ValidationError(`Not a ${format} list response: the list of records was not found.`);
  }
  return list;
}

export interface IngestOutcome {
  incidents: NormalisedIncident[];
  /** One entry per rejected record, `index` being its position in the request's `incidents`. */
  errors: Array<{ index: number; message: string; details?: ErrorDetail[] }>;
}

/**
 * The pure part of `POST /incidents/ingest`: each record is normalised on its own, so one bad record
 * in a batch of 500 is reported by index instead of failing the other 499. Two records naming the
 * same incident collapse to the newest copy.
 */
export function normaliseIngestBatch(
  body: { format?: SiemFormat | undefined; incidents: readonly unknown[] },
  options: SiemMappingOptions = {},
): IngestOutcome {
  if (body.incidents.length > INCIDENT_LIMITS.maxBatch) {
    throw new ValidationError(`At most ${INCIDENT_LIMITS.maxBatch} incidents per request.`);
  }
  const byId = new Map<string, NormalisedIncident>();
  const errors: IngestOutcome['errors'] = [];
  body.incidents.forEach((record, index) => {
    if (body.format) {
      try {
        const incident = mapSiemRecord(body.format, record, options);
        keepNewest(byId, incident);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        errors.push({ index, message: error.message, ...(error.details ? { details: error.details } : {}) });
      }
      return;
    }
    const result = normaliseIncident(record);
    if (result.ok) keepNewest(byId, result.incident);
    else {
      const summary = result.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
      errors.push({
        index,
        message: `Invalid incident. ${summary}`.slice(0, 1000),
        details: result.problems,
      });
    }
  });
  return { incidents: [...byId.values()], errors };
}

function keepNewest(byId: Map<string, NormalisedIncident>, incident: NormalisedIncident): void {
  const existing = byId.get(incident.incident_id);
  if (!existing || incident.updated_at >= existing.updated_at) byId.set(incident.incident_id, incident);
}

export interface PullWindowOptions {
  /** Re-read this much before the watermark: SIEMs index late, and upserts make the overlap harmless. */
  overlapSeconds?: number;
  /** How far back the very first run looks. */
  initialLookbackHours?: number;
  /** Leave the newest seconds for the next run, so records still being written are not skipped. */
  settleSeconds?: number;
  /** Bound on one run's window, so a connector that was down catches up in steps. */
  maxWindowHours?: number;
}

export interface PullWindow {
  from: string;
  to: string;
}

const HOUR = 3_600_000;

/** The time range one pull run asks the SIEM for, from the stored watermark. */
export function pullWindow(
  watermark: string | undefined,
  now: Date,
  options: PullWindowOptions = {},
): PullWindow {
  const overlap = (options.overlapSeconds ?? 300) * 1000;
  const settle = (options.settleSeconds ?? 60) * 1000;
  const maxWindow = (options.maxWindowHours ?? 24) * HOUR;
  const end = now.getTime() - settle;
  const start = watermark
    ? Date.parse(watermark) - overlap
    : now.getTime() - (options.initialLookbackHours ?? 24 * 7) * HOUR;
  if (Number.isNaN(start)) throw new ValidationError(`Invalid watermark ${JSON.stringify(watermark)}.`);
  const from = Math.min(start, end - 1000);
  const to = Math.min(end, from + maxWindow);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/**
 * The watermark to store after a run over `window`. It never moves backwards and never past the
 * window's end (a SIEM clock running ahead must not make the next run skip records). When the
 * whole window was read it moves to the window's end, even if nothing changed, so an idle SIEM
 * does not pin it; when a run stopped part-way, only as far as the newest incident it processed.
 */
export function watermarkAfter(run: {
  previous?: string | undefined;
  window: PullWindow;
  completed: boolean;
  processed: ReadonlyArray<Pick<NormalisedIncident, 'updated_at'>>;
}): string {
  const end = Date.parse(run.window.to);
  const times = run.processed.map((i) => Date.parse(i.updated_at)).filter((t) => !Number.isNaN(t));
  const reached = run.completed ? end : Math.min(end, Math.max(Number.NEGATIVE_INFINITY, ...times));
  const previous = run.previous ? Date.parse(run.previous) : Number.NaN;
  const next = Math.max(Number.isNaN(previous) ? Number.NEGATIVE_INFINITY : previous, reached);
  // A run that processed nothing and had no watermark stays at its start, so nothing is skipped.
  return new Date(Number.isFinite(next) ? next : Date.parse(run.window.from)).toISOString();
}
