import { RELATIONSHIPS } from '../../domain/graph/graph';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Cursor, Entity, EntityType, Limit, Truncated } from './common';

/** API Gateway may hand over a path parameter still percent-encoded; decode once, never twice. */
function decodeOnce(raw: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export const GraphEntityParams = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      value: withMeta(
        z.pipe(
          z.pipe(z.string(), z.transform(decodeOnce)),
          z.string().check(z.trim(), z.minLength(1), z.maxLength(256)),
        ),
        {
          description:
            'The entity to look up: an IP address, user, host or domain, URL-encoded (e.g. j.doe%40contoso.example). Its type is inferred unless the type query parameter is given.',
          example: '203.0.113.66',
        },
      ),
    }),
    { id: 'GraphEntityParams' },
  ))();

export const GraphQuery = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      type: withMeta(z.optional(EntityType), {
        description:
          'The type of the entity in the path, when inference would guess wrong (a bare logon name such as alice is read as a host unless type=user)',
        example: 'ip',
      }),
      depth: withMeta(z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(2)), 1), {
        description: '1: direct neighbors; 2: also their neighbors (default 1)',
        example: 1,
      }),
      limit: Limit,
      cursor: z.optional(Cursor),
    }),
    { id: 'GraphQuery' },
  ))();

export const Relationship = /* @__PURE__ */ (() =>
  withMeta(z.enum(RELATIONSHIPS), {
    id: 'GraphRelationship',
    description:
      'co_occurs_in_incident: both in one SIEM incident; related_in_investigation: found while investigating one of them; resolves_to: domain/host → IP; logged_in_from: user → IP/host; connected_to: host → IP/domain; impersonates: look-alike → the domain it imitates; subdomain_of: subdomain → parent; alias_of: two names of one identity',
    example: 'co_occurs_in_incident',
  }))();

const Seen = /* @__PURE__ */ (() => z.iso.datetime())();

export const GraphEntity = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      type: EntityType,
      value: withMeta(z.string(), {
        description: 'The normalised value that was looked up',
        example: '203.0.113.66',
      }),
      risk_score: withMeta(z.optional(z.number().check(z.gte(0), z.lte(100))), {
        description: 'Risk score (0-100) of the latest investigation of this entity, if any',
        example: 82,
      }),
      first_seen: withMeta(Seen, { description: 'First time the service saw this entity (UTC)' }),
      last_seen: withMeta(Seen, { description: 'Latest time the service saw this entity (UTC)' }),
      investigation_count: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Investigations that named this entity',
        example: 2,
      }),
      incident_count: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Incidents that named this entity',
        example: 7,
      }),
    }),
    { id: 'GraphEntity', description: 'The entity that was looked up' },
  ))();

export const GraphNeighbor = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      type: EntityType,
      value: withMeta(z.string(), { description: 'The connected entity', example: 'j.doe@contoso.example' }),
      relationship: Relationship,
      direction: withMeta(z.optional(z.enum(['out', 'in', 'both'])), {
        description:
          'out: the looked-up entity is the subject (it resolves_to / logged_in_from / connected_to / impersonates / is a subdomain_of this one); in: the reverse; both: undirected',
        example: 'both',
      }),
      first_seen: withMeta(Seen, { description: 'First incident or investigation linking the two (UTC)' }),
      last_seen: withMeta(Seen, { description: 'Latest incident or investigation linking the two (UTC)' }),
      count: withMeta(z.number().check(z.int(), z.gte(1)), {
        description: 'How many incidents or investigations link the two',
        example: 4,
      }),
      evidence: withMeta(z.array(z.string()), {
        description: 'The newest (at most 20) incident_ids and session_ids behind the relationship',
      }),
      depth: withMeta(z.number().check(z.int(), z.gte(1), z.lte(2)), {
        description: '1: direct neighbor; 2: neighbor of a neighbor',
        example: 1,
      }),
      via: withMeta(z.optional(Entity), {
        description: 'For depth 2: the direct neighbor this entity is connected through',
      }),
      risk_score: withMeta(z.optional(z.number().check(z.gte(0), z.lte(100))), {
        description:
          'Risk score (0-100) of the latest investigation of this entity, if one scored it; absent when none did',
        example: 35,
      }),
    }),
    { id: 'GraphNeighbor' },
  ))();

export const GraphResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity: GraphEntity,
      neighbors: withMeta(z.array(GraphNeighbor), {
        description:
          'Connected entities, strongest first (most links, then most recent); depth 1 before depth 2',
      }),
      next_cursor: withMeta(z.nullable(z.string()), {
        description: 'Pass as cursor to get more neighbors; null when there are no more',
      }),
      truncated: Truncated,
    }),
    {
      id: 'GraphResponse',
      description:
        "An entity's neighborhood in the knowledge graph built from incidents and past investigations",
      example: {
        entity: {
          type: 'ip',
          value: '203.0.113.66',
          risk_score: 82,
          first_seen: '2026-10-05T03:12:00.000Z',
          last_seen: '2026-11-01T08:14:00.000Z',
          investigation_count: 1,
          incident_count: 7,
        },
        neighbors: [
          {
            type: 'user',
            value: 'j.doe@contoso.example',
            relationship: 'co_occurs_in_incident',
            direction: 'both',
            first_seen: '2026-10-05T03:12:00.000Z',
            last_seen: '2026-11-01T08:14:00.000Z',
            count: 4,
            evidence: ['inc_2q7v3m4k5n6p7r2s3t4u5v6w7x'],
            depth: 1,
            risk_score: 35,
          },
        ],
        next_cursor: null,
      },
    },
  ))();
