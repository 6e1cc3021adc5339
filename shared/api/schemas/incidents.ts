import {
  INCIDENT_LIMITS,
  INCIDENT_STATUSES,
  type IncidentStatus as IncidentStatusValue,
  normaliseSeverity,
  normaliseStatus,
  SEVERITIES,
  type Severity as SeverityValue,
  toIsoUtc,
} from '../../domain/incidents/incident';
import { SIEM_FORMATS } from '../../domain/siem/formats';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Cursor, Entity, Limit, NextCursor, SessionId, Truncated } from './common';
import { Verdict } from './search';

/** An incident's entity, with its investigation once the incident was investigated as it arrived. */
export const IncidentEntity = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      ...Entity.shape,
      session_id: withMeta(z.optional(SessionId), {
        description: 'The investigation of this entity started as the incident arrived (docs/soar.md)',
      }),
      verdict: withMeta(z.optional(Verdict), {
        description: 'That investigation’s verdict, once it completed',
      }),
      risk_score: withMeta(z.optional(z.number().check(z.gte(0), z.lte(100))), {
        description: 'That investigation’s risk score, once it completed',
      }),
    }),
    { id: 'IncidentEntity' },
  ))();

export const IncidentSeverity = /* @__PURE__ */ (() =>
  withMeta(z.enum(SEVERITIES), {
    id: 'IncidentSeverity',
    description: 'Incident severity, lowest to highest',
    example: 'high',
  }))();

export const IncidentStatus = /* @__PURE__ */ (() =>
  withMeta(z.enum(INCIDENT_STATUSES), {
    id: 'IncidentStatus',
    description:
      'new: not yet triaged; active: being worked on; resolved: remediated; closed: done or dismissed',
    example: 'active',
  }))();

const EXAMPLE_INCIDENT = {
  source: 'splunk',
  source_id: '1A2B3C4D-0000-4000-8000-000000000042@@notable@@5f1c0e7a',
  title: 'Brute force access behavior detected from 203.0.113.66',
  description: 'More than 50 failed logons for j.doe@contoso.example from one source within 10 minutes.',
  severity: 'high',
  status: 'new',
  created_at: '2026-11-01T08:14:00Z',
  updated_at: '2026-11-01T08:20:00Z',
  url: 'https://splunk.example.com:8000/en-US/app/SplunkEnterpriseSecuritySuite/incident_review',
  entities: [
    { type: 'ip', value: '203.0.113.66' },
    { type: 'user', value: 'j.doe@contoso.example' },
  ],
};

/** One normalised incident as a SIEM or script pushes it. Documented here; validated per item by the domain. */
export const IncidentInput = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      source: withMeta(z.string().check(z.minLength(1), z.maxLength(INCIDENT_LIMITS.sourceLength)), {
        description:
          'The system the incident comes from: sentinel, splunk, elastic, custom, or another lowercase slug. Same source + source_id = same incident (an update, not a duplicate).',
        example: 'splunk',
      }),
      source_id: withMeta(z.string().check(z.minLength(1), z.maxLength(INCIDENT_LIMITS.sourceIdLength)), {
        description: "The incident's ID in the source system",
        example: EXAMPLE_INCIDENT.source_id,
      }),
      title: withMeta(z.string().check(z.minLength(1), z.maxLength(INCIDENT_LIMITS.titleLength)), {
        example: EXAMPLE_INCIDENT.title,
      }),
      description: z.optional(z.string().check(z.maxLength(INCIDENT_LIMITS.descriptionLength))),
      severity: withMeta(z.string(), {
        description:
          'informational, low, medium, high or critical (synonyms such as info, moderate or severe are mapped)',
        example: 'high',
      }),
      status: withMeta(z.string(), {
        description:
          'new, active, resolved or closed (synonyms such as Open, InProgress or acknowledged are mapped)',
        example: 'new',
      }),
      created_at: withMeta(z.string(), {
        description: 'When the incident was raised in the source, ISO 8601 with offset',
        example: '2026-11-01T08:14:00Z',
      }),
      updated_at: withMeta(z.optional(z.string()), {
        description: 'Last change in the source, ISO 8601 with offset; defaults to created_at',
      }),
      url: withMeta(z.optional(z.string().check(z.maxLength(INCIDENT_LIMITS.urlLength))), {
        description: 'http(s) link to the incident in the source system',
      }),
      entities: withMeta(
        z._default(
          z
            .array(z.union([Entity, z.string().check(z.minLength(1), z.maxLength(256))]))
            .check(z.maxLength(INCIDENT_LIMITS.maxEntities)),
          [],
        ),
        { description: 'Entities involved; a bare string has its type inferred' },
      ),
    }),
    {
      id: 'IncidentInput',
      description: 'A normalised incident pushed by a SIEM',
      example: EXAMPLE_INCIDENT,
    },
  ))();

export const NativeSiemRecord = /* @__PURE__ */ (() =>
  withMeta(z.record(z.string(), z.unknown()), {
    id: 'NativeSiemRecord',
    description:
      'With format set: one record exactly as the SIEM returns it: a Sentinel incident resource (with relatedEntities), a Splunk ES notable event row, or an Elastic Security alert document or search hit.',
  }))();

/**
 * The body is checked as an envelope only (format and 1-500 JSON objects); every item is then
 * normalised on its own, so one bad record is reported by index in the 202 answer instead of
 * failing the whole batch.
 */
export const IngestIncidentsRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      format: withMeta(z.optional(z.enum(SIEM_FORMATS)), {
        description:
          "Omit for normalised incidents (IncidentInput). Set to sentinel, splunk or elastic to send the SIEM's native records unchanged: Sentinel incident resources, Splunk ES notable events, Elastic Security alert documents or search hits.",
        example: 'splunk',
      }),
      // The union documents IncidentInput for integrators while letting any JSON object through, so
      // an item that is not a valid IncidentInput is rejected by index, not with the whole batch.
      incidents: withMeta(
        z
          .array(z.union([IncidentInput, NativeSiemRecord]))
          .check(z.minLength(1), z.maxLength(INCIDENT_LIMITS.maxBatch)),
        {
          description: `1-${INCIDENT_LIMITS.maxBatch} incidents per request (and the body at most 1 MiB)`,
        },
      ),
    }),
    {
      id: 'IngestIncidentsRequest',
      description:
        'A batch of incidents from a SIEM. Upserts are idempotent: re-sending an incident updates it, and an older copy never overwrites a newer one.',
      example: { incidents: [EXAMPLE_INCIDENT] },
    },
  ))();

export const IngestIncidentsResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      accepted: withMeta(z.number().check(z.int()), {
        description: 'Incidents queued for storage (duplicates in one batch count once)',
        example: 1,
      }),
      rejected: withMeta(z.number().check(z.int()), {
        description: 'Records that could not be normalised',
        example: 0,
      }),
      errors: withMeta(
        z.array(
          z.object({
            index: withMeta(z.number().check(z.int()), {
              description: 'Position of the record in the request',
              example: 3,
            }),
            message: withMeta(z.string(), {
              example:
                'Invalid incident. severity: must be one of informational, low, medium, high, critical',
            }),
            details: withMeta(z.optional(z.array(z.object({ path: z.string(), message: z.string() }))), {
              description: 'Each failing field of the record and why',
            }),
          }),
        ),
        { description: 'Why each rejected record was rejected' },
      ),
    }),
    { id: 'IngestIncidentsResponse', description: 'Answer to an ingest request (HTTP 202)' },
  ))();

// A mini transform's context has no addIssue (classic adds one): these transforms push their issue
// themselves, as addIssue did.
function commaList<T extends string>(
  name: string,
  allowed: readonly T[],
  normalise: (raw: string) => T | undefined,
) {
  return z.pipe(
    z.string().check(z.maxLength(200)),
    z.transform((raw, ctx) => {
      const values: T[] = [];
      for (const part of raw.split(',')) {
        if (!part.trim()) continue;
        const value = normalise(part);
        if (!value) {
          ctx.issues.push({
            code: 'custom',
            message: `unknown ${name} "${part.trim()}"; use ${allowed.join(', ')}`,
            input: raw,
          });
          return z.NEVER;
        }
        if (!values.includes(value)) values.push(value);
      }
      if (values.length === 0) {
        ctx.issues.push({ code: 'custom', message: `give at least one ${name}`, input: raw });
        return z.NEVER;
      }
      return values;
    }),
  );
}

const QueryTime = /* @__PURE__ */ (() =>
  z.pipe(
    z.string(),
    z.transform((raw, ctx) => {
      // A bare date means the start of that day in UTC: what a person or an assistant usually sends.
      const iso = toIsoUtc(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
      if (!iso) {
        ctx.issues.push({
          code: 'custom',
          message: 'must be a real calendar date-time in ISO 8601 with offset (or a date, YYYY-MM-DD)',
          input: raw,
        });
        return z.NEVER;
      }
      return iso;
    }),
  ))();

export const ListIncidentsQuery = /* @__PURE__ */ (() =>
  withMeta(
    z
      .object({
        severity: withMeta(z.optional(commaList<SeverityValue>('severity', SEVERITIES, normaliseSeverity)), {
          description: 'Comma-separated severities to include: informational, low, medium, high, critical',
          example: 'high,critical',
        }),
        status: withMeta(
          z.optional(commaList<IncidentStatusValue>('status', INCIDENT_STATUSES, normaliseStatus)),
          {
            description: 'Comma-separated statuses to include: new, active, resolved, closed',
            example: 'new,active',
          },
        ),
        since: withMeta(z.optional(QueryTime), {
          description:
            'Only incidents created at or after this time (ISO 8601, e.g. 2026-11-01T00:00:00Z, or a date)',
          example: '2026-11-01T00:00:00Z',
        }),
        until: withMeta(z.optional(QueryTime), {
          description:
            'Only incidents created before this time (ISO 8601 or a date); must not be before since',
          example: '2026-11-08T00:00:00Z',
        }),
        limit: Limit,
        cursor: z.optional(Cursor),
      })
      .check(
        z.superRefine((query, ctx) => {
          if (query.since && query.until && query.since > query.until) {
            ctx.addIssue({ code: 'custom', path: ['until'], message: 'until must not be before since' });
          }
        }),
      ),
    { id: 'ListIncidentsQuery' },
  ))();

/** Who wrote an incident's stored copy (domain IncidentOrigin). */
export const IncidentOriginSchema = /* @__PURE__ */ (() =>
  z.object({
    kind: withMeta(z.enum(['push', 'pull', 'demo']), {
      description:
        'push: sent to the ingest endpoint; pull: read from the SIEM by this deployment; demo: demo data',
    }),
    key_id: withMeta(z.optional(z.string()), { description: 'The API key that pushed it (push only)' }),
    connector: withMeta(z.optional(z.string()), { description: 'The SIEM it was pulled from (pull only)' }),
  }))();

export const IncidentSummary = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      incident_id: withMeta(z.string(), {
        description: "The incident's ID in this service",
        example: 'inc_2q7v3m4k5n6p7r2s3t4u5v6w7x',
      }),
      title: withMeta(z.string(), { description: 'What happened, as the SIEM titled it' }),
      severity: IncidentSeverity,
      status: IncidentStatus,
      link: withMeta(z.url(), { description: "The incident's page in this service" }),
      created_at: withMeta(z.iso.datetime(), { description: 'When the SIEM raised it (UTC)' }),
      updated_at: withMeta(z.iso.datetime(), { description: 'Last change seen from the SIEM (UTC)' }),
      source: withMeta(z.string(), {
        description: 'sentinel, splunk, elastic, custom or another source',
        example: 'sentinel',
      }),
      source_id: withMeta(z.string(), { description: "The incident's ID in the source system" }),
      source_url: withMeta(z.optional(z.url()), {
        description:
          'Link to the incident in the SIEM, as its writer gave it: for a pushed copy (origin.kind push) an external link the pushing key chose',
      }),
      origin: withMeta(z.optional(IncidentOriginSchema), {
        description:
          'Who wrote the stored copy: push (the API key that sent it), pull (this deployment read it from the SIEM) or demo; absent on copies stored before it was recorded',
      }),
      entities: withMeta(z.array(IncidentEntity), { description: 'Normalised entities involved' }),
    }),
    { id: 'IncidentSummary', description: 'One incident in a list' },
  ))();

export const ListIncidentsResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      incidents: withMeta(z.array(IncidentSummary), { description: 'Newest first (by created_at)' }),
      next_cursor: NextCursor,
      truncated: Truncated,
    }),
    {
      id: 'ListIncidentsResponse',
      example: {
        incidents: [
          {
            incident_id: 'inc_2q7v3m4k5n6p7r2s3t4u5v6w7x',
            title: 'Sign-in from anonymous IP followed by MFA fatigue for j.doe@contoso.example',
            severity: 'high',
            status: 'active',
            link: 'https://sis.example.com/incidents/inc_2q7v3m4k5n6p7r2s3t4u5v6w7x',
            created_at: '2026-11-01T08:14:00.000Z',
            updated_at: '2026-11-01T09:02:00.000Z',
            source: 'sentinel',
            source_id: '6b2f5a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
            source_url:
              'https://portal.azure.com/#asset/Microsoft_Azure_Security_Insights/Incident/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/soc/providers/Microsoft.OperationalInsights/workspaces/soc/providers/Microsoft.SecurityInsights/Incidents/6b2f5a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
            entities: [
              { type: 'user', value: 'j.doe@contoso.example' },
              { type: 'ip', value: '203.0.113.66' },
            ],
          },
        ],
        next_cursor: null,
      },
    },
  ))();
