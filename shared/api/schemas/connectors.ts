import * as z from 'zod';
import { CONNECTOR_NAMES } from '../../domain/intel/names';
import { TLP_LEVELS } from '../../domain/tlp';

/** The threat-intelligence connectors admin view (GET /api/v1/admin/connectors). Never a key. */
export const ConnectorStatus = /* @__PURE__ */ z
  .object({
    name: z.enum(CONNECTOR_NAMES).meta({ description: 'Connector name', example: 'abuseipdb' }),
    title: z.string().meta({ description: 'Provider and product', example: 'AbuseIPDB v2' }),
    tool: z
      .string()
      .meta({ description: 'Its tool call name in investigations', example: 'intel_abuseipdb' }),
    enabled: z.boolean().meta({
      description:
        'Configured in this deployment (key, or enabled for a keyless source); never called otherwise',
      example: true,
    }),
    entity_types: z.array(z.string()).meta({ description: 'Entity types it looks up', example: ['ip'] }),
    max_tlp: z.enum(TLP_LEVELS).meta({
      description: 'Highest TLP an investigation may have for this source to be asked',
      example: 'amber',
    }),
    cache_ttl_seconds: z.number().int().meta({ description: 'How long an answer is reused', example: 86400 }),
    quota: z
      .object({
        used_today: z.number().int().min(0).meta({ description: 'Lookups made today (UTC)', example: 12 }),
        daily_limit: z
          .number()
          .int()
          .min(0)
          .meta({ description: 'Lookups allowed per UTC day', example: 1000 }),
        min_interval_ms: z
          .number()
          .int()
          .min(0)
          .meta({ description: 'Pacing: least time between two lookups', example: 0 }),
      })
      .meta({ description: 'Daily quota' }),
    circuit: z
      .object({
        state: z.enum(['closed', 'open', 'half_open']).meta({
          description:
            'open: lookups are skipped until open_until after repeated failures; half_open: the next lookup is a trial',
          example: 'closed',
        }),
        consecutive_failures: z.number().int().min(0).meta({ example: 0 }),
        open_until: z.string().nullable().meta({ description: 'When an open circuit lets a trial through' }),
      })
      .meta({ description: 'Circuit breaker' }),
    last_error_at: z.string().nullable().meta({ description: 'When the source last failed (UTC)' }),
    last_error: z.string().nullable().meta({
      description: 'What the last failure was (a status or "timed out"; never a key or provider text)',
      example: 'AbuseIPDB answered HTTP 503.',
    }),
  })
  .meta({ id: 'ConnectorStatus' });

export const ListConnectorsResponse = /* @__PURE__ */ z
  .object({ connectors: z.array(ConnectorStatus).meta({ description: 'Every connector the service knows' }) })
  .meta({ id: 'ListConnectorsResponse' });
