import * as z from '../../zod';
import { addIssue } from '../../zod';
import type { EntityInput } from '../core/entity';
import { entityKey } from '../core/entity';
import { normaliseEntity } from '../core/entity-normalisation';
import { type ErrorDetail, ValidationError } from '../core/errors';
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

const httpUrl = /* @__PURE__ */ (() =>
  z.string().check(
    z.maxLength(INCIDENT_LIMITS.urlLength),
    z.refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'must be an http(s) URL'),
  ))();

const entityInput = /* @__PURE__ */ (() =>
  z.union([
    z.string().check(z.minLength(1), z.maxLength(256)),
    z.object({ type: z.optional(z.string()), value: z.string().check(z.minLength(1), z.maxLength(256)) }),
  ]))();

const TIME_MESSAGE = 'must be a real calendar date-time in ISO 8601 with offset, e.g. 2026-11-01T12:00:00Z';

const timeInput = /* @__PURE__ */ (() =>
  z.pipe(
    z.union([z.string(), z.number()], { error: TIME_MESSAGE }),
    z.transform((raw, ctx) => {
      const iso = toIsoUtc(raw);
      if (!iso) {
        addIssue(ctx, TIME_MESSAGE);
        return z.NEVER;
      }
      return iso;
    }),
  ))();

/** Normalised, de-duplicated entities; each invalid one is reported at its own path. */
function normaliseEntities(raw: z.output<typeof entityInput>[], ctx: z.core.ParsePayload): IncidentEntity[] {
  const entities: IncidentEntity[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    let entity: IncidentEntity;
    try {
      entity = normaliseEntity(item as EntityInput, String(index));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const detail of error.details ?? [{ path: String(index), message: error.message }]) {
        addIssue(ctx, detail.message, detail.path.split('.'));
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
export const incidentInputSchema = /* @__PURE__ */ (() =>
  z.object({
    source: z.pipe(
      z.pipe(z.string(), z.transform(normaliseSource)),
      z
        .string()
        .check(
          z.regex(SOURCE_PATTERN, 'must be a lowercase slug such as sentinel, splunk, elastic or custom'),
        ),
    ),
    source_id: z.string().check(z.trim(), z.minLength(1), z.maxLength(INCIDENT_LIMITS.sourceIdLength)),
    title: z.pipe(
      z.pipe(z.string(), z.transform(cleanLine)),
      z.string().check(z.minLength(1), z.maxLength(INCIDENT_LIMITS.titleLength)),
    ),
    description: z.nullish(
      z.pipe(
        z.pipe(z.string(), z.transform(cleanMultiline)),
        z.string().check(z.maxLength(INCIDENT_LIMITS.descriptionLength)),
      ),
    ),
    severity: z.pipe(
      z.string(),
      z.transform((raw, ctx) => {
        const severity = normaliseSeverity(raw);
        if (!severity) {
          addIssue(ctx, `must be one of ${SEVERITIES.join(', ')}`);
          return z.NEVER;
        }
        return severity;
      }),
    ),
    status: z.pipe(
      z.string(),
      z.transform((raw, ctx) => {
        const status = normaliseStatus(raw);
        if (!status) {
          addIssue(ctx, `must be one of ${INCIDENT_STATUSES.join(', ')}`);
          return z.NEVER;
        }
        return status;
      }),
    ),
    created_at: timeInput,
    updated_at: z.nullish(timeInput),
    url: z.nullish(httpUrl),
    entities: z.pipe(
      z._default(z.array(entityInput).check(z.maxLength(INCIDENT_LIMITS.maxEntities)), []),
      z.transform(normaliseEntities),
    ),
  }))();

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
