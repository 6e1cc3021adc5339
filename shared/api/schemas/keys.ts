import * as z from 'zod';
import {
  GRACE_PERIOD_SECONDS,
  KEY_DESCRIPTION_MAX,
  KEY_EXPIRY_DAYS,
  KEY_NAME_MAX,
} from '../../domain/key-lifecycle';
import { DEFAULT_RATE_LIMIT, RATE_LIMIT_BOUNDS } from '../../domain/rate-limit';
import { PLUGIN_SCOPES, SCOPES } from '../../domain/scopes';
import { IsoDateTime } from './common';

const EXAMPLE_KEY_ID = 'k7q2m4x3c3v5b6n2';
/** Well-formed (it passes the checksum) but belongs to no key: the secret spells a disclaimer. */
const EXAMPLE_API_KEY = 'sis_k7q2m4x3c3v5b6n2_RXhhbXBsZSBzZWNyZXQsIG5vdCBhIHJlYWwga2V5ISE07Mspv9E';
const EXAMPLE_PREFIX = 'sis_k7q2m4x3c3v5b6n2_RXhh';

export const ApiKeyScope = /* @__PURE__ */ z.enum(SCOPES).meta({
  id: 'ApiKeyScope',
  description:
    'A permission a key may carry. investigations:read = poll and read own sessions; investigations:write = start and cancel investigations; incidents:read = list incidents; incidents:write = push incidents from a SIEM; search:read = search own investigations; graph:read = query the knowledge graph. Admin is a key role, not a scope.',
  example: 'investigations:read',
});

export const ApiKeyRole = /* @__PURE__ */ z.enum(['admin', 'client']).meta({
  id: 'ApiKeyRole',
  description:
    'client: an integration limited to its scopes; admin: may also create, list, rotate and disable keys',
});

export const ApiKeyStatus = /* @__PURE__ */ z.enum(['active', 'disabled', 'expired']).meta({
  id: 'ApiKeyStatus',
  description:
    'active: accepted; disabled: revoked by an admin; expired: past expires_at. Only active keys are accepted.',
});

export const KeyId = /* @__PURE__ */ z
  .string()
  .regex(/^[a-z2-7]{16}$/, 'must be a key_id as returned by createApiKey (16 characters a-z, 2-7)')
  .meta({ description: 'Stable key identifier; unchanged by rotation', example: EXAMPLE_KEY_ID });

export const KeyPrefix = /* @__PURE__ */ z.string().meta({
  description:
    'Non-secret leading part of the key (product prefix, key_id and 4 characters of the secret), to recognise it',
  example: EXAMPLE_PREFIX,
});

const ApiKeySecret = /* @__PURE__ */ z.string().meta({
  description:
    'The full API key. Shown only in this response: store it in a secrets manager and send it in the X-API-Key header.',
  example: EXAMPLE_API_KEY,
});

export const RateLimit = /* @__PURE__ */ z
  .strictObject({
    rate_per_second: z.number().positive().max(RATE_LIMIT_BOUNDS.maxRatePerSecond).meta({
      description: 'Steady request rate allowed per second',
      example: DEFAULT_RATE_LIMIT.rate_per_second,
    }),
    burst: z.number().int().min(1).max(RATE_LIMIT_BOUNDS.maxBurst).meta({
      description: 'Requests allowed at once above the steady rate (token bucket size)',
      example: DEFAULT_RATE_LIMIT.burst,
    }),
    daily_quota: z
      .number()
      .int()
      .min(1)
      .max(RATE_LIMIT_BOUNDS.maxDailyQuota)
      .optional()
      .meta({ description: 'Maximum requests per UTC day; omitted = unlimited', example: 50_000 }),
  })
  .meta({
    id: 'RateLimit',
    description: `Per-key limits; exceeding them answers 429 with Retry-After. Omitted on create: the deployment's defaults (its default usage plan's; unless configured otherwise ${DEFAULT_RATE_LIMIT.rate_per_second}/s, burst ${DEFAULT_RATE_LIMIT.burst}, no daily quota).`,
  });

export const CreateApiKeyRequest = /* @__PURE__ */ z
  .strictObject({
    name: z.string().trim().min(1).max(KEY_NAME_MAX).meta({
      description: 'Descriptive name, after the integration that will use the key',
      example: 'Security Copilot plugin',
    }),
    description: z.string().trim().max(KEY_DESCRIPTION_MAX).default('').meta({
      description: 'What the key is for and who owns it',
      example: 'SOC assistant plugin, owned by the SecOps team',
    }),
    scopes: z
      .array(ApiKeyScope)
      .max(SCOPES.length * 2)
      .meta({
        description:
          'Scopes to grant; give only what the integration needs. A client key needs at least one.',
        example: [...PLUGIN_SCOPES],
      }),
    role: ApiKeyRole.default('client').meta({ description: 'client (default) or admin' }),
    expires_in_days: z
      .number()
      .int()
      .min(KEY_EXPIRY_DAYS.min)
      .max(KEY_EXPIRY_DAYS.max)
      .default(KEY_EXPIRY_DAYS.default)
      .meta({
        description: `Days until the key expires (${KEY_EXPIRY_DAYS.min}-${KEY_EXPIRY_DAYS.max}, default ${KEY_EXPIRY_DAYS.default}). Every key expires.`,
        example: KEY_EXPIRY_DAYS.default,
      }),
    rate_limit: RateLimit.optional(),
  })
  .meta({ id: 'CreateApiKeyRequest' });

export const ApiKeySummary = /* @__PURE__ */ z
  .object({
    key_id: KeyId,
    key_prefix: KeyPrefix,
    name: z.string().meta({ example: 'Security Copilot plugin' }),
    description: z.string(),
    scopes: z.array(ApiKeyScope),
    role: ApiKeyRole,
    status: ApiKeyStatus,
    expires_at: IsoDateTime.meta({ description: 'When the key stops being accepted' }),
    created_at: IsoDateTime,
    rate_limit: RateLimit,
    created_by: z.string().meta({ description: 'key_id of the admin key (or cli:<user>) that created it' }),
    updated_at: IsoDateTime,
    last_used_at: IsoDateTime.nullable().meta({
      description:
        'Last accepted request (valid key, operation within its scopes), to about a minute; null if never used. Requests refused with 401 or 403 by the gateway do not change it. Monitor it to find unused keys.',
    }),
    rotated_at: IsoDateTime.nullable(),
    grace_period_ends_at: IsoDateTime.nullable().meta({
      description: 'While a rotation grace period runs: when the previous secret stops being accepted',
    }),
    disabled_at: IsoDateTime.nullable(),
  })
  .meta({ id: 'ApiKeySummary', description: 'An API key as listed: never its secret' });

export const CreateApiKeyResponse = /* @__PURE__ */ z
  .object({ ...ApiKeySummary.shape, api_key: ApiKeySecret })
  .meta({ id: 'CreateApiKeyResponse', description: 'The new key, with its secret shown this once' });

export const ListApiKeysQuery = /* @__PURE__ */ z.object({
  search: z.string().trim().min(1).max(256).optional().meta({
    description: 'Case-insensitive text matched against name, description, key_id and key_prefix',
    example: 'copilot',
  }),
});

export const ListApiKeysResponse = /* @__PURE__ */ z
  .object({ keys: z.array(ApiKeySummary).meta({ description: 'All matching keys, oldest first' }) })
  .meta({ id: 'ListApiKeysResponse' });

export const KeyIdParams = /* @__PURE__ */ z.object({ key_id: KeyId });

export const RotateApiKeyRequest = /* @__PURE__ */ z
  .strictObject({
    grace_period_seconds: z
      .number()
      .int()
      .min(GRACE_PERIOD_SECONDS.min)
      .max(GRACE_PERIOD_SECONDS.max)
      .default(GRACE_PERIOD_SECONDS.default)
      .meta({
        description: `Seconds the previous secret stays accepted, at most ${GRACE_PERIOD_SECONDS.max} (7 days). Omitted or 0: no grace period, the previous secret is refused from the very next request.`,
        example: 3600,
      }),
    expires_in_days: z
      .number()
      .int()
      .min(KEY_EXPIRY_DAYS.min)
      .max(KEY_EXPIRY_DAYS.max)
      .optional()
      .meta({ description: 'Restart the expiry clock from now; omitted = keep the current expires_at' }),
  })
  .meta({ id: 'RotateApiKeyRequest' });

export const RotateApiKeyResponse = /* @__PURE__ */ z
  .object({
    ...ApiKeySummary.shape,
    api_key: ApiKeySecret,
    grace_period_ends_at: IsoDateTime.meta({
      description: 'When the previous secret stops being accepted (now, for a grace period of 0)',
    }),
  })
  .meta({ id: 'RotateApiKeyResponse', description: 'The same key_id with a new secret, shown this once' });
