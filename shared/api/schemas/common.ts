import * as z from '../../zod';
import { withMeta } from '../../zod';

export const ErrorResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      error: z.object({
        code: withMeta(z.string(), {
          description: 'Stable machine-readable error code',
          example: 'not_found',
        }),
        message: withMeta(z.string(), { description: 'Human-readable explanation, safe to show to a user' }),
        request_id: withMeta(z.string(), { description: 'Correlates with the service logs' }),
        details: withMeta(z.optional(z.array(z.object({ path: z.string(), message: z.string() }))), {
          description: 'For validation errors: which field failed and why',
        }),
      }),
    }),
    { id: 'ErrorResponse', description: 'The one error shape of every failed call' },
  ))();

export const EntityType = /* @__PURE__ */ (() =>
  withMeta(z.enum(['ip', 'user', 'host', 'domain']), {
    id: 'EntityType',
    description: 'Kind of security entity',
  }))();

export const Entity = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      type: EntityType,
      value: withMeta(z.string().check(z.minLength(1), z.maxLength(256)), {
        description: 'Normalised entity value',
        example: '203.0.113.7',
      }),
    }),
    { id: 'Entity', description: 'A security entity: an IP address, user, host or domain' },
  ))();

export const Limit = /* @__PURE__ */ (() =>
  withMeta(z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20), {
    description: 'Maximum number of items to return (1-100, default 20)',
  }))();

export const Cursor = /* @__PURE__ */ (() =>
  withMeta(z.string().check(z.minLength(1), z.maxLength(2048)), {
    description:
      'Opaque cursor from a previous response (next_cursor) to fetch the next page. Cursors are signed for this query and API key: an edited, foreign or outdated cursor is refused with 400 invalid_cursor.',
  }))();

export const IsoDateTime = /* @__PURE__ */ (() =>
  withMeta(z.iso.datetime({ offset: true }), { example: '2026-11-01T12:00:00Z' }))();

export const SessionId = /* @__PURE__ */ (() =>
  withMeta(
    z
      .string()
      .check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be a session ID as returned by startInvestigation')),
    {
      description: 'Session ID returned when the investigation started',
      example: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
    },
  ))();

/** Set by the plugin skills' size caps (shared/api/plugin-responses.ts, docs/plugin.md). */
export const Truncated = /* @__PURE__ */ (() =>
  withMeta(z.optional(z.boolean()), {
    description:
      'Present and true when this answer was shortened to the size limits for assistants: lists lose their least relevant end, long texts end with "…". Ask for a smaller page (limit) or read the full record (getInvestigationReport, getSessionHistory).',
    example: true,
  }))();

export const NextCursor = /* @__PURE__ */ (() =>
  withMeta(z.nullable(z.string()), {
    description: 'Pass as cursor to get the next page; null when there are no more',
  }))();
