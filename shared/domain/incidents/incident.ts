import { createHash } from 'node:crypto';
import type { Entity } from '../core/entity';

/**
 * The normalised incident: one shape for every SIEM. Whatever the source, an incident is stored,
 * listed, linked into the knowledge graph and read by enrichers in this form only. Validating and
 * normalising a whole incident record as it arrives is incident-input.ts, so the readers (lists,
 * links, views) import neither the input schema nor the entity parsers.
 */
export const SEVERITIES = ['informational', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const INCIDENT_STATUSES = ['new', 'active', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Higher is worse; lets callers sort or threshold without string comparisons. */
export const SEVERITY_RANK: Record<Severity, number> = {
  informational: 0,
  low: 1,
  medium: 2,
  high: 3,
  critical: 4,
};

/** Known SIEM sources; any other lowercase slug is accepted for custom integrations. */
export const KNOWN_SOURCES = ['sentinel', 'splunk', 'elastic', 'custom'] as const;

export const INCIDENT_LIMITS = {
  /** Incidents per ingest request. */
  maxBatch: 500,
  sourceLength: 64,
  sourceIdLength: 256,
  titleLength: 512,
  descriptionLength: 8000,
  urlLength: 2048,
  /** Entities kept per incident (after de-duplication). */
  maxEntities: 50,
} as const;

export type IncidentEntity = Entity;

export interface NormalisedIncident {
  /** `inc_` + 26 base32 characters derived from source and source_id: same SIEM record, same ID. */
  incident_id: string;
  source: string;
  source_id: string;
  title: string;
  description?: string;
  severity: Severity;
  status: IncidentStatus;
  /** ISO 8601 UTC with milliseconds (`2026-11-01T12:00:00.000Z`), so it sorts as a string. */
  created_at: string;
  updated_at: string;
  entities: IncidentEntity[];
  /** Link back to the incident in the SIEM's own console. */
  source_url?: string;
}

export const INCIDENT_ID_PATTERN = /^inc_[a-z2-7]{26}$/;
const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let buffer = 0;
  let out = '';
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export function normaliseSource(source: string): string {
  return source.trim().toLowerCase();
}

/**
 * Deterministic incident ID. The source is a slug that cannot contain `|`, so `source|source_id`
 * is unambiguous; 26 base32 characters keep 130 bits of the SHA-256, far beyond collision range.
 */
export function incidentId(source: string, sourceId: string): string {
  const digest = createHash('sha256')
    .update(`${normaliseSource(source)}|${sourceId}`, 'utf8')
    .digest();
  return `inc_${base32(digest).slice(0, 26)}`;
}

/** The incident's page in this service, as handed to users and assistant platforms. */
export function incidentLink(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/incidents/${encodeURIComponent(id)}`;
}

function synonymKey(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

const SEVERITY_SYNONYMS: Record<string, Severity> = {
  informational: 'informational',
  information: 'informational',
  info: 'informational',
  none: 'informational',
  low: 'low',
  minor: 'low',
  medium: 'medium',
  med: 'medium',
  moderate: 'medium',
  high: 'high',
  major: 'high',
  critical: 'critical',
  crit: 'critical',
  severe: 'critical',
};

const STATUS_SYNONYMS: Record<string, IncidentStatus> = {
  new: 'new',
  open: 'new',
  unassigned: 'new',
  todo: 'new',
  triage: 'new',
  active: 'active',
  inprogress: 'active',
  acknowledged: 'active',
  assigned: 'active',
  investigating: 'active',
  pending: 'active',
  onhold: 'active',
  resolved: 'resolved',
  remediated: 'resolved',
  fixed: 'resolved',
  closed: 'closed',
  dismissed: 'closed',
  suppressed: 'closed',
};

/** Maps the vocabularies SIEMs use (`Info`, `Moderate`, `SEVERE`...) to the five severities. */
export function normaliseSeverity(raw: unknown): Severity | undefined {
  return typeof raw === 'string' ? SEVERITY_SYNONYMS[synonymKey(raw)] : undefined;
}

/** Maps `Open`, `InProgress`, `in progress`, `acknowledged`... to the four statuses. */
export function normaliseStatus(raw: unknown): IncidentStatus | undefined {
  return typeof raw === 'string' ? STATUS_SYNONYMS[synonymKey(raw)] : undefined;
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_TIME = Date.UTC(2100, 0, 1);

const ISO_FIELDS =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?[^Zz+-]*(?:[Zz]|[+-](\d{2}):?(\d{2}))$/;

/**
 * Whether the date and time an ISO 8601 text names exist on the calendar. `Date.parse` rolls an
 * impossible date over (2026-02-30 becomes March 2, 2026-04-31 May 1, 24:00 the next day), which
 * would store an incident under another day; such a text is refused instead.
 */
export function isCalendarDateTime(text: string): boolean {
  const fields = ISO_FIELDS.exec(text);
  if (!fields) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = fields
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part))) as number[];
  const daysInMonth = new Date(Date.UTC(year ?? 0, month ?? 0, 0)).getUTCDate();
  return (
    (month ?? 0) >= 1 &&
    (month ?? 0) <= 12 &&
    (day ?? 0) >= 1 &&
    (day ?? 0) <= daysInMonth &&
    (hour ?? 0) <= 23 &&
    (minute ?? 0) <= 59 &&
    (second ?? 0) <= 59 &&
    (offsetHours ?? 0) <= 23 &&
    (offsetMinutes ?? 0) <= 59
  );
}

/**
 * The one reader of timestamps from outside (ingest, SIEM records, the incident list's since/until):
 * ISO 8601 with an explicit offset, or epoch seconds / milliseconds (Splunk's `_time`), to
 * `toISOString()` form. A time without an offset is refused: its meaning depends on the sender's
 * time zone, and a wrong guess would silently reorder the incident list. An impossible calendar date
 * or time (February 30, April 31, 24:00) is refused too.
 */
export function toIsoUtc(raw: unknown): string | undefined {
  let ms: number | undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) {
    ms = raw > 1e11 ? raw : raw * 1000;
  } else if (typeof raw === 'string') {
    const text = raw.trim();
    if (/^\d{9,10}(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
    else if (/^\d{12,13}$/.test(text)) ms = Number(text);
    else if (ISO_WITH_OFFSET.test(text) && isCalendarDateTime(text)) {
      // Date.parse understands ±hh:mm but not ±hhmm.
      ms = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    }
  }
  if (ms === undefined || Number.isNaN(ms) || ms < MIN_TIME || ms >= MAX_TIME) return undefined;
  return new Date(Math.floor(ms)).toISOString();
}

/** The later of two `toIsoUtc` times (they compare as strings; Math.max would not). */
export function laterTime(a: string, b: string): string {
  return b > a ? b : a;
}

export function earlierTime(a: string, b: string): string {
  return b < a ? b : a;
}

/** Control and invisible format characters (bidi overrides, zero-width) except tab and newline. */
const INVISIBLE = /(?![\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** One line of text: no control or bidi characters (they spoof what an analyst reads), spaces collapsed. */
export function cleanLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
}

export function cleanMultiline(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(INVISIBLE, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Shortens to at most `max` characters (code points are not split), marking the cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * The idempotent-upsert rule: a re-delivered or older copy of an incident never overwrites a newer
 * one; an equal `updated_at` does (a replay is harmless and lets a corrected record through).
 */
export function shouldReplace(
  existing: Pick<NormalisedIncident, 'updated_at'> | undefined,
  incoming: NormalisedIncident,
): boolean {
  return existing === undefined || incoming.updated_at >= existing.updated_at;
}

export interface IncidentView {
  incident_id: string;
  title: string;
  severity: Severity;
  status: IncidentStatus;
  link: string;
  created_at: string;
  updated_at: string;
  source: string;
  source_id: string;
  source_url?: string;
  entities: IncidentEntity[];
}

/** The list item of `GET /incidents`: everything but the (possibly long) description. */
export function toIncidentView(incident: NormalisedIncident, publicUrl: string): IncidentView {
  const view: IncidentView = {
    incident_id: incident.incident_id,
    title: incident.title,
    severity: incident.severity,
    status: incident.status,
    link: incidentLink(publicUrl, incident.incident_id),
    created_at: incident.created_at,
    updated_at: incident.updated_at,
    source: incident.source,
    source_id: incident.source_id,
    entities: incident.entities,
  };
  if (incident.source_url) view.source_url = incident.source_url;
  return view;
}
