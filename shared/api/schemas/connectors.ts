import { TLP_LEVELS } from '../../domain/core/tlp';
import { CONNECTOR_NAMES } from '../../domain/intel/names';
import * as z from '../../zod';
import { withMeta } from '../../zod';

/** The threat-intelligence connectors admin view (GET /api/v1/admin/connectors). Never a key. */
export const ConnectorStatus = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      name: withMeta(z.enum(CONNECTOR_NAMES), { description: 'Connector name', example: 'abuseipdb' }),
      title: withMeta(z.string(), { description: 'Provider and product', example: 'AbuseIPDB v2' }),
      tool: withMeta(z.string(), {
        description: 'Its tool call name in investigations',
        example: 'intel_abuseipdb',
      }),
      enabled: withMeta(z.boolean(), {
        description:
          'Configured in this deployment (key, or enabled for a keyless source); never called otherwise',
        example: true,
      }),
      entity_types: withMeta(z.array(z.string()), {
        description: 'Entity types it looks up',
        example: ['ip'],
      }),
      max_tlp: withMeta(z.enum(TLP_LEVELS), {
        description: 'Highest TLP an investigation may have for this source to be asked',
        example: 'amber',
      }),
      cache_ttl_seconds: withMeta(z.number().check(z.int()), {
        description: 'How long an answer is reused',
        example: 86400,
      }),
      quota: withMeta(
        z.object({
          used_today: withMeta(z.number().check(z.int(), z.gte(0)), {
            description: 'Lookups made today (UTC)',
            example: 12,
          }),
          daily_limit: withMeta(z.number().check(z.int(), z.gte(0)), {
            description: 'Lookups allowed per UTC day',
            example: 1000,
          }),
          min_interval_ms: withMeta(z.number().check(z.int(), z.gte(0)), {
            description: 'Pacing: least time between two lookups',
            example: 0,
          }),
        }),
        { description: 'Daily quota' },
      ),
      circuit: withMeta(
        z.object({
          state: withMeta(z.enum(['closed', 'open', 'half_open']), {
            description:
              'open: lookups are skipped until open_until after repeated failures; half_open: the next lookup is a trial',
            example: 'closed',
          }),
          consecutive_failures: withMeta(z.number().check(z.int(), z.gte(0)), { example: 0 }),
          open_until: withMeta(z.nullable(z.string()), {
            description: 'When an open circuit lets a trial through',
          }),
        }),
        { description: 'Circuit breaker' },
      ),
      last_error_at: withMeta(z.nullable(z.string()), { description: 'When the source last failed (UTC)' }),
      last_error: withMeta(z.nullable(z.string()), {
        description: 'What the last failure was (a status or "timed out"; never a key or provider text)',
        example: 'AbuseIPDB answered HTTP 503.',
      }),
      how_to_enable: withMeta(z.nullable(z.string()), {
        description:
          'How an operator turns this connector on (its setting locally and on AWS); null once it is on',
        example:
          'Needs a key: set SIS_INTEL_ABUSEIPDB_API_KEY locally; on AWS put it as "ABUSEIPDB" in the intelSecretArn secret and add abuseipdb to -c intelConnectors.',
      }),
    }),
    { id: 'ConnectorStatus' },
  ))();

export const ListConnectorsResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      connectors: withMeta(z.array(ConnectorStatus), { description: 'Every connector the service knows' }),
    }),
    { id: 'ListConnectorsResponse' },
  ))();
