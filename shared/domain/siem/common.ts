import * as z from '../../zod';
import { entityKey } from '../core/entity';
import { normaliseEntity } from '../core/entity-normalisation';
import { ValidationError } from '../core/errors';
import {
  cleanLine,
  cleanMultiline,
  INCIDENT_LIMITS,
  type IncidentEntity,
  type NormalisedIncident,
  truncate,
} from '../incidents/incident';
import { assertIncident, type IncidentInput } from '../incidents/incident-input';

export type EntityCandidate = { type?: IncidentEntity['type']; value: string };

/**
 * Reads `a.b.c` from a record whose fields may be nested objects, flattened dotted keys (Elastic
 * alert documents mix both), or single-element arrays (Elastic's `fields` API, Splunk multivalues).
 */
export function readPath(record: unknown, path: string): unknown {
  if (record === null || typeof record !== 'object') return undefined;
  const object = record as Record<string, unknown>;
  if (path in object) return object[path];
  const parts = path.split('.');
  for (let cut = parts.length - 1; cut >= 1; cut--) {
    const head = parts.slice(0, cut).join('.');
    if (head in object) {
      let value = object[head];
      if (Array.isArray(value) && value.length === 1) value = value[0];
      const found = readPath(value, parts.slice(cut).join('.'));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** All non-empty strings in a scalar or (nested) array; numbers become strings. */
export function stringsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  return [];
}

export function firstString(value: unknown): string | undefined {
  return stringsOf(value)[0];
}

/** First defined value among several paths. */
export function readFirst(record: unknown, paths: readonly string[]): unknown {
  for (const path of paths) {
    const value = readPath(record, path);
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) return value;
  }
  return undefined;
}

/**
 * SIEM records carry entity-like fields of uneven quality (`-`, `unknown`, URLs, host:port). A field
 * that does not normalise is dropped rather than failing the incident: the incident itself is
 * still worth listing.
 */
export function collectEntities(candidates: readonly EntityCandidate[]): IncidentEntity[] {
  const entities: IncidentEntity[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const value = candidate.value.trim();
    if (!value || /^(-|n\/a|unknown|none|null)$/i.test(value) || value.length > 256) continue;
    const entity = tryNormalise(candidate.type, value);
    if (!entity) continue;
    const key = entityKey(entity);
    if (seen.has(key)) continue;
    seen.add(key);
    entities.push(entity);
    if (entities.length >= INCIDENT_LIMITS.maxEntities) break;
  }
  return entities;
}

function tryNormalise(type: EntityCandidate['type'], value: string): IncidentEntity | undefined {
  try {
    return normaliseEntity(type ? { type, value } : value);
  } catch {
    // A SIEM's "domain" field often holds an internal name (`intranet.corp`): that is a host.
    if (type !== 'domain') return undefined;
    try {
      return normaliseEntity({ type: 'host', value });
    } catch {
      return undefined;
    }
  }
}

/** Host part of a URL (or of a bare `host/path`), for `domain` entities. */
export function hostOfUrl(raw: string): string | undefined {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
    return url.hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}

/** Parses a native record against its vendor schema, or throws a ValidationError naming the fields. */
export function parseNative<T>(schema: z.core.$ZodType<T>, record: unknown, vendor: string): T {
  const result = z.safeParse(schema, record);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(record)',
    message: issue.message,
  }));
  const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  throw new ValidationError(`Not a valid ${vendor}. ${summary}`.slice(0, 1000), details);
}

/** SIEM text is trimmed to the limits instead of rejected: a long rule description is not an error. */
export function fitTitle(title: string): string {
  return truncate(cleanLine(title), INCIDENT_LIMITS.titleLength);
}

export function fitDescription(description: string | undefined): string | undefined {
  if (!description) return undefined;
  const cleaned = cleanMultiline(description);
  return cleaned ? truncate(cleaned, INCIDENT_LIMITS.descriptionLength) : undefined;
}

export function safeUrl(raw: string | undefined): string | undefined {
  if (!raw || raw.length > INCIDENT_LIMITS.urlLength) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Final step of every mapper: the mapped fields go through the same validation as pushed incidents. */
export function finish(input: IncidentInput, vendor: string): NormalisedIncident {
  try {
    return assertIncident(input);
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(`Not a valid ${vendor}. ${error.message}`.slice(0, 1000), error.details);
    }
    throw error;
  }
}
