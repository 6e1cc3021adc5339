import * as z from 'zod';

export const ErrorResponse = /* @__PURE__ */ z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable machine-readable error code', example: 'not_found' }),
      message: z.string().meta({ description: 'Human-readable explanation, safe to show to a user' }),
      request_id: z.string().meta({ description: 'Correlates with the service logs' }),
      details: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .meta({ description: 'For validation errors: which field failed and why' }),
    }),
  })
  .meta({ id: 'ErrorResponse', description: 'The one error shape of every failed call' });

export const EntityType = /* @__PURE__ */ z
  .enum(['ip', 'user', 'host', 'domain'])
  .meta({ id: 'EntityType', description: 'Kind of security entity' });

export const Entity = /* @__PURE__ */ z
  .object({
    type: EntityType,
    value: z
      .string()
      .min(1)
      .max(256)
      .meta({ description: 'Normalised entity value', example: '203.0.113.7' }),
  })
  .meta({ id: 'Entity', description: 'A security entity: an IP address, user, host or domain' });

export const Limit = /* @__PURE__ */ z.coerce
  .number()
  .int()
  .min(1)
  .max(100)
  .default(20)
  .meta({ description: 'Maximum number of items to return (1-100, default 20)' });

export const Cursor = /* @__PURE__ */ z.string().min(1).max(2048).meta({
  description:
    'Opaque cursor from a previous response (next_cursor) to fetch the next page. Cursors are signed for this query and API key: an edited, foreign or outdated cursor is refused with 400 invalid_cursor.',
});

export const IsoDateTime = /* @__PURE__ */ z.iso
  .datetime({ offset: true })
  .meta({ example: '2026-11-01T12:00:00Z' });

export const SessionId = /* @__PURE__ */ z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be a session ID as returned by startInvestigation')
  .meta({
    description: 'Session ID returned when the investigation started',
    example: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
  });

/** Set by the plugin skills' size caps (shared/api/plugin-responses.ts, docs/plugin.md). */
export const Truncated = /* @__PURE__ */ z.boolean().optional().meta({
  description:
    'Present and true when this answer was shortened to the size limits for assistants: lists lose their least relevant end, long texts end with "…". Ask for a smaller page (limit) or read the full record (getInvestigationReport, getSessionHistory).',
  example: true,
});

export const NextCursor = /* @__PURE__ */ z
  .string()
  .nullable()
  .meta({ description: 'Pass as cursor to get the next page; null when there are no more' });
