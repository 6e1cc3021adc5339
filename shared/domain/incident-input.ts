import * as z from 'zod';
import type { EntityInput } from './entity';
import { entityKey } from './entity';
import { normaliseEntity } from './entity-normalisation';
import { type ErrorDetail, ValidationError } from './errors';
import {
  cleanLine,
  cleanMultiline,
  INCIDENT_LIMITS,
  INCIDENT_STATUSES,
  type IncidentEntity,
  incidentId,
  laterTime,
  type NormalisedIncident,
  normaliseSeverity,
  normaliseSource,
  normaliseStatus,
  SEVERITIES,
  toIsoUtc,
} from './incident';

/**
 * An incident record as it arrives (`POST /incidents/ingest`, the SIEM mappings, the demo data):
 * validated and normalised into the one incident shape (incident.ts), entities included.
 */

const SOURCE_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

const httpUrl = z
  .string()
  .max(INCIDENT_LIMITS.urlLength)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

const entityInput = z.union([
  z.string().min(1).max(256),
  z.object({ type: z.string().optional(), value: z.string().min(1).max(256) }),
]);

const TIME_MESSAGE = 'must be a real calendar date-time in ISO 8601 with offset, e.g. 2026-11-01T12:00:00Z';

const timeInput = z.union([z.string(), z.number()], { error: TIME_MESSAGE }).transform((raw, ctx) => {
  const iso = toIsoUtc(raw);
  if (!iso) {
    ctx.addIssue({ code: 'custom', message: TIME_MESSAGE });
    return z.NEVER;
  }
  return iso;
});

/** Normalised, de-duplicated entities; each invalid one is reported at its own path. */
function normaliseEntities(raw: z.output<typeof entityInput>[], ctx: z.RefinementCtx): IncidentEntity[] {
  const entities: IncidentEntity[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    let entity: IncidentEntity;
    try {
      entity = normaliseEntity(item as EntityInput, String(index));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const detail of error.details ?? [{ path: String(index), message: error.message }]) {
        ctx.addIssue({ code: 'custom', message: detail.message, path: detail.path.split('.') });
      }
      return;
    }
    const key = entityKey(entity);
    if (!seen.has(key)) {
      seen.add(key);
      entities.push(entity);
    }
  });
  return entities;
}

/**
 * The contract's normalised incident as a SIEM or script sends it to `POST /incidents/ingest`.
 * Severity and status accept synonyms; they are mapped by `normaliseIncident`.
 */
export const incidentInputSchema = z.object({
  source: z
    .string()
    .transform(normaliseSource)
    .pipe(
      z
        .string()
        .regex(SOURCE_PATTERN, 'must be a lowercase slug such as sentinel, splunk, elastic or custom'),
    ),
  source_id: z.string().trim().min(1).max(INCIDENT_LIMITS.sourceIdLength),
  title: z.string().transform(cleanLine).pipe(z.string().min(1).max(INCIDENT_LIMITS.titleLength)),
  description: z
    .string()
    .transform(cleanMultiline)
    .pipe(z.string().max(INCIDENT_LIMITS.descriptionLength))
    .nullish(),
  severity: z.string().transform((raw, ctx) => {
    const severity = normaliseSeverity(raw);
    if (!severity) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${SEVERITIES.join(', ')}` });
      return z.NEVER;
    }
    return severity;
  }),
  status: z.string().transform((raw, ctx) => {
    const status = normaliseStatus(raw);
    if (!status) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${INCIDENT_STATUSES.join(', ')}` });
      return z.NEVER;
    }
    return status;
  }),
  created_at: timeInput,
  updated_at: timeInput.nullish(),
  url: httpUrl.nullish(),
  entities: z.array(entityInput).max(INCIDENT_LIMITS.maxEntities).default([]).transform(normaliseEntities),
});

export type IncidentInput = z.input<typeof incidentInputSchema>;

export type IncidentResult =
  | { ok: true; incident: NormalisedIncident }
  | { ok: false; problems: ErrorDetail[] };

/**
 * Validates one incident and returns it normalised, or every problem found (so a SIEM operator
 * fixes a record in one round trip). `updated_at` defaults to, and is never earlier than,
 * `created_at`; entities (at most 50) are normalised and de-duplicated.
 */
export function normaliseIncident(input: unknown): IncidentResult {
  const parsed = incidentInputSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.') || '(incident)',
        message: issue.message,
      })),
    };
  }
  const data = parsed.data;
  const incident: NormalisedIncident = {
    incident_id: incidentId(data.source, data.source_id),
    source: data.source,
    source_id: data.source_id,
    title: data.title,
    severity: data.severity,
    status: data.status,
    created_at: data.created_at,
    updated_at: laterTime(data.created_at, data.updated_at ?? data.created_at),
    entities: data.entities,
  };
  if (data.description) incident.description = data.description;
  if (data.url) incident.source_url = data.url;
  return { ok: true, incident };
}

/** As `normaliseIncident`, throwing a ValidationError (400) that lists the problems. */
export function assertIncident(input: unknown): NormalisedIncident {
  const result = normaliseIncident(input);
  if (result.ok) return result.incident;
  const summary = result.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
  throw new ValidationError(`Invalid incident. ${summary}`.slice(0, 1000), result.problems);
}
