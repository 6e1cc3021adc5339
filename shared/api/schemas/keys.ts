import {
  GRACE_PERIOD_SECONDS,
  KEY_DESCRIPTION_MAX,
  KEY_EXPIRY_DAYS,
  KEY_NAME_MAX,
} from '../../domain/keys/key-lifecycle';
import { DEFAULT_RATE_LIMIT, RATE_LIMIT_BOUNDS } from '../../domain/keys/rate-limit';
import { PLUGIN_SCOPES, SCOPES } from '../../domain/keys/scopes';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { IsoDateTime } from './common';

const EXAMPLE_KEY_ID = 'k7q2m4x3c3v5b6n2';
/** Well-formed (it passes the checksum) but belongs to no key: the secret spells a disclaimer. */
const EXAMPLE_API_KEY = 'sis_k7q2m4x3c3v5b6n2_RXhhbXBsZSBzZWNyZXQsIG5vdCBhIHJlYWwga2V5ISE07Mspv9E';
const EXAMPLE_PREFIX = 'sis_k7q2m4x3c3v5b6n2_RXhh';

export const ApiKeyScope = /* @__PURE__ */ (() =>
  withMeta(z.enum(SCOPES), {
    id: 'ApiKeyScope',
    description:
      'A permission a key may carry. investigations:read = poll and read own sessions; investigations:write = start and cancel investigations; incidents:read = list incidents; incidents:write = push incidents from a SIEM; search:read = search own investigations; graph:read = query the knowledge graph. Admin is a key role, not a scope.',
    example: 'investigations:read',
  }))();

export const ApiKeyRole = /* @__PURE__ */ (() =>
  withMeta(z.enum(['admin', 'client']), {
    id: 'ApiKeyRole',
    description:
      'client: an integration limited to its scopes; admin: may also create, list, rotate and disable keys',
  }))();

export const ApiKeyStatus = /* @__PURE__ */ (() =>
  withMeta(z.enum(['active', 'disabled', 'expired']), {
    id: 'ApiKeyStatus',
    description:
      'active: accepted; disabled: revoked by an admin; expired: past expires_at. Only active keys are accepted.',
  }))();

export const KeyId = /* @__PURE__ */ (() =>
  withMeta(
    z
      .string()
      .check(
        z.regex(/^[a-z2-7]{16}$/, 'must be a key_id as returned by createApiKey (16 characters a-z, 2-7)'),
      ),
    { description: 'Stable key identifier; unchanged by rotation', example: EXAMPLE_KEY_ID },
  ))();

export const KeyPrefix = /* @__PURE__ */ (() =>
  withMeta(z.string(), {
    description:
      'Non-secret leading part of the key (product prefix, key_id and 4 characters of the secret), to recognise it',
    example: EXAMPLE_PREFIX,
  }))();

const ApiKeySecret = /* @__PURE__ */ (() =>
  withMeta(z.string(), {
    description:
      'The full API key. Shown only in this response: store it in a secrets manager and send it in the X-API-Key header.',
    example: EXAMPLE_API_KEY,
  }))();

export const RateLimit = /* @__PURE__ */ (() =>
  withMeta(
    z.strictObject({
      rate_per_second: withMeta(z.number().check(z.positive(), z.lte(RATE_LIMIT_BOUNDS.maxRatePerSecond)), {
        description: 'Steady request rate allowed per second',
        example: DEFAULT_RATE_LIMIT.rate_per_second,
      }),
      burst: withMeta(z.number().check(z.int(), z.gte(1), z.lte(RATE_LIMIT_BOUNDS.maxBurst)), {
        description: 'Requests allowed at once above the steady rate (token bucket size)',
        example: DEFAULT_RATE_LIMIT.burst,
      }),
      daily_quota: withMeta(
        z.optional(z.number().check(z.int(), z.gte(1), z.lte(RATE_LIMIT_BOUNDS.maxDailyQuota))),
        { description: 'Maximum requests per UTC day; omitted = unlimited', example: 50_000 },
      ),
    }),
    {
      id: 'RateLimit',
      description: `Per-key limits; exceeding them answers 429 with Retry-After. Omitted on create: the deployment's defaults (its default usage plan's; unless configured otherwise ${DEFAULT_RATE_LIMIT.rate_per_second}/s, burst ${DEFAULT_RATE_LIMIT.burst}, no daily quota).`,
    },
  ))();

export const CreateApiKeyRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.strictObject({
      name: withMeta(z.string().check(z.trim(), z.minLength(1), z.maxLength(KEY_NAME_MAX)), {
        description: 'Descriptive name, after the integration that will use the key',
        example: 'Security Copilot plugin',
      }),
      description: withMeta(z._default(z.string().check(z.trim(), z.maxLength(KEY_DESCRIPTION_MAX)), ''), {
        description: 'What the key is for and who owns it',
        example: 'SOC assistant plugin, owned by the SecOps team',
      }),
      scopes: withMeta(z.array(ApiKeyScope).check(z.maxLength(SCOPES.length * 2)), {
        description:
          'Scopes to grant; give only what the integration needs. A client key needs at least one.',
        example: [...PLUGIN_SCOPES],
      }),
      role: withMeta(z._default(ApiKeyRole, 'client'), { description: 'client (default) or admin' }),
      expires_in_days: withMeta(
        z._default(
          z.number().check(z.int(), z.gte(KEY_EXPIRY_DAYS.min), z.lte(KEY_EXPIRY_DAYS.max)),
          KEY_EXPIRY_DAYS.default,
        ),
        {
          description: `Days until the key expires (${KEY_EXPIRY_DAYS.min}-${KEY_EXPIRY_DAYS.max}, default ${KEY_EXPIRY_DAYS.default}). Every key expires.`,
          example: KEY_EXPIRY_DAYS.default,
        },
      ),
      rate_limit: z.optional(RateLimit),
    }),
    { id: 'CreateApiKeyRequest' },
  ))();

export const ApiKeySummary = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      key_id: KeyId,
      key_prefix: KeyPrefix,
      name: withMeta(z.string(), { example: 'Security Copilot plugin' }),
      description: z.string(),
      scopes: z.array(ApiKeyScope),
      role: ApiKeyRole,
      status: ApiKeyStatus,
      expires_at: withMeta(IsoDateTime, { description: 'When the key stops being accepted' }),
      created_at: IsoDateTime,
      rate_limit: RateLimit,
      created_by: withMeta(z.string(), {
        description: 'key_id of the admin key (or cli:<user>) that created it',
      }),
      updated_at: IsoDateTime,
      last_used_at: withMeta(z.nullable(IsoDateTime), {
        description:
          'Last accepted request (valid key, operation within its scopes), to about a minute; null if never used. Requests refused with 401 or 403 by the gateway do not change it. Monitor it to find unused keys.',
      }),
      rotated_at: z.nullable(IsoDateTime),
      grace_period_ends_at: withMeta(z.nullable(IsoDateTime), {
        description: 'While a rotation grace period runs: when the previous secret stops being accepted',
      }),
      disabled_at: z.nullable(IsoDateTime),
    }),
    { id: 'ApiKeySummary', description: 'An API key as listed: never its secret' },
  ))();

export const CreateApiKeyResponse = /* @__PURE__ */ (() =>
  withMeta(z.object({ ...ApiKeySummary.shape, api_key: ApiKeySecret }), {
    id: 'CreateApiKeyResponse',
    description: 'The new key, with its secret shown this once',
  }))();

export const ListApiKeysQuery = /* @__PURE__ */ (() =>
  z.object({
    search: withMeta(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(256))), {
      description: 'Case-insensitive text matched against name, description, key_id and key_prefix',
      example: 'copilot',
    }),
  }))();

export const ListApiKeysResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({ keys: withMeta(z.array(ApiKeySummary), { description: 'All matching keys, oldest first' }) }),
    { id: 'ListApiKeysResponse' },
  ))();

export const KeyIdParams = /* @__PURE__ */ (() => z.object({ key_id: KeyId }))();

export const RotateApiKeyRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.strictObject({
      grace_period_seconds: withMeta(
        z._default(
          z.number().check(z.int(), z.gte(GRACE_PERIOD_SECONDS.min), z.lte(GRACE_PERIOD_SECONDS.max)),
          GRACE_PERIOD_SECONDS.default,
        ),
        {
          description: `Seconds the previous secret stays accepted, at most ${GRACE_PERIOD_SECONDS.max} (7 days). Omitted or 0: no grace period, the previous secret is refused from the very next request.`,
          example: 3600,
        },
      ),
      expires_in_days: withMeta(
        z.optional(z.number().check(z.int(), z.gte(KEY_EXPIRY_DAYS.min), z.lte(KEY_EXPIRY_DAYS.max))),
        { description: 'Restart the expiry clock from now; omitted = keep the current expires_at' },
      ),
    }),
    { id: 'RotateApiKeyRequest' },
  ))();

export const RotateApiKeyResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      ...ApiKeySummary.shape,
      api_key: ApiKeySecret,
      grace_period_ends_at: withMeta(IsoDateTime, {
        description: 'When the previous secret stops being accepted (now, for a grace period of 0)',
      }),
    }),
    { id: 'RotateApiKeyResponse', description: 'The same key_id with a new secret, shown this once' },
  ))();
