import { ConflictError, ValidationError } from '../core/errors';
import { type GeneratedSecret, secretMatchesHash } from './api-key';
import { DEFAULT_RATE_LIMIT, type RateLimitSettings, validateRateLimit } from './rate-limit';
import { type KeyRole, SCOPES, type Scope } from './scopes';

/**
 * The life of an API key: creation, status, expiry, rotation with a grace period, disabling and the
 * throttled `last_used_at`. Pure rules over the record; the store persists what these return.
 *
 * Decisions:
 * - Expiry is mandatory (spec: "keys should always be given an expiry"): 90 days by default, at most
 *   365, so a forgotten integration key dies within a year.
 * - Rotation grace: none unless asked for (the specification makes it optional, and rotating a leaked
 *   key must not leave it working by omission): omitted or 0, the old secret is refused from the very
 *   next request; at most 7 days. Only one previous secret is kept: rotating again during a grace
 *   period ends the older secret immediately.
 * - Disabled and expired keys cannot be rotated (409): rotation must never bring a revoked key back.
 *   Rotation keeps `expires_at` unless `expires_in_days` is given, which restarts the expiry clock.
 * - Checks run in the order secret → status → expiry, so the logged denial reason ("disabled") is
 *   only ever given to someone who held a real secret; the response is the same 401 in every case.
 */
export const KEY_EXPIRY_DAYS = { default: 90, min: 1, max: 365 } as const;
export const GRACE_PERIOD_SECONDS = { default: 0, min: 0, max: 7 * 24 * 3600 } as const;
/** `last_used_at` is written at most once per interval per key, keeping the hot path read-only. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;
export const KEY_NAME_MAX = 100;
export const KEY_DESCRIPTION_MAX = 500;

export type StoredKeyStatus = 'active' | 'disabled';
export type KeyStatus = StoredKeyStatus | 'expired';

export interface ApiKeyRecord {
  key_id: string;
  name: string;
  description: string;
  scopes: Scope[];
  role: KeyRole;
  status: StoredKeyStatus;
  key_prefix: string;
  secret_hash: string;
  previous_secret_hash?: string;
  previous_valid_until?: string;
  expires_at: string;
  created_at: string;
  created_by: string;
  updated_at: string;
  last_used_at?: string;
  rotated_at?: string;
  disabled_at?: string;
  disabled_by?: string;
  rate_limit: RateLimitSettings;
  /** AWS only: value of the API Gateway API key used as usage-plan identifier (not a credential). */
  usage_identifier_key?: string;
  /** AWS only: the API Gateway API key ID and the plan it belongs to. */
  apigw_key_id?: string;
  usage_plan_id?: string;
}

/** What listings and admin responses show: never a secret, a hash or AWS plumbing. */
export interface ApiKeySummary {
  key_id: string;
  key_prefix: string;
  name: string;
  description: string;
  scopes: Scope[];
  role: KeyRole;
  status: KeyStatus;
  expires_at: string;
  created_at: string;
  created_by: string;
  updated_at: string;
  last_used_at: string | null;
  rotated_at: string | null;
  grace_period_ends_at: string | null;
  disabled_at: string | null;
  rate_limit: RateLimitSettings;
  /** The spending caps that apply to the key's investigations. */
  investigation_limits: InvestigationLimits;
}

/**
 * What the admin audit list records: key operations, and the tenant-knowledge changes beside them
 * (allowlist entries added and removed, feedback on a session; `key_id` then names the entry or the
 * session acted on).
 */
export type AdminAction =
  | 'create'
  | 'rotate'
  | 'disable'
  | 'bootstrap'
  | 'allowlist_add'
  | 'allowlist_remove'
  | 'feedback'
  | 'feedback_approve'
  | 'do_not_share_mark'
  | 'do_not_share_lower'
  | 'webhook_create'
  | 'webhook_rotate_secret'
  | 'webhook_remove'
  | 'webhook_disable'
  | 'critical_asset_add'
  | 'critical_asset_remove';

export interface AuditEntry {
  audit_id: string;
  at: string;
  action: AdminAction;
  key_id: string;
  actor: string;
  /** Non-secret facts about the change (scopes, role, grace period, outcome). */
  details: Record<string, string | number | boolean | string[] | null>;
}

export type DenialReason =
  | 'missing'
  | 'malformed'
  | 'unknown_key'
  | 'wrong_secret'
  | 'grace_period_over'
  | 'disabled'
  | 'expired'
  | 'no_allowed_routes';

export type KeyVerification =
  | { ok: true; record: ApiKeyRecord; matched: 'current' | 'previous' }
  | { ok: false; reason: DenialReason };

const ms = (iso: string | undefined): number => (iso ? Date.parse(iso) : Number.NaN);

export function isExpired(record: Pick<ApiKeyRecord, 'expires_at'>, now: Date): boolean {
  const expiry = ms(record.expires_at);
  // An unreadable expiry fails closed.
  return !Number.isFinite(expiry) || now.getTime() >= expiry;
}

export function effectiveStatus(record: Pick<ApiKeyRecord, 'status' | 'expires_at'>, now: Date): KeyStatus {
  if (record.status === 'disabled') return 'disabled';
  return isExpired(record, now) ? 'expired' : 'active';
}

export function isUsable(record: Pick<ApiKeyRecord, 'status' | 'expires_at'>, now: Date): boolean {
  return effectiveStatus(record, now) === 'active';
}

export function previousSecretValid(record: ApiKeyRecord, now: Date): boolean {
  return record.previous_secret_hash !== undefined && now.getTime() < ms(record.previous_valid_until);
}

/** Verifies a presented secret against a (possibly missing) record. Both hashes are always compared. */
export function verifyKey(record: ApiKeyRecord | undefined, secret: string, now: Date): KeyVerification {
  const current = secretMatchesHash(secret, record?.secret_hash);
  const previous = secretMatchesHash(secret, record?.previous_secret_hash);
  if (!record) return { ok: false, reason: 'unknown_key' };
  const matched = current ? 'current' : previous && previousSecretValid(record, now) ? 'previous' : undefined;
  if (!matched) return { ok: false, reason: previous ? 'grace_period_over' : 'wrong_secret' };
  if (record.status !== 'active') return { ok: false, reason: 'disabled' };
  if (isExpired(record, now)) return { ok: false, reason: 'expired' };
  return { ok: true, record, matched };
}

export function lastUsedWriteDue(record: Pick<ApiKeyRecord, 'last_used_at'>, now: Date): boolean {
  const last = ms(record.last_used_at);
  return !Number.isFinite(last) || now.getTime() - last >= LAST_USED_WRITE_INTERVAL_MS;
}

export function addDays(now: Date, days: number): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString();
}

function checkRange(value: number, range: { min: number; max: number }, path: string): number {
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ValidationError(`${path} must be an integer from ${range.min} to ${range.max}.`, [
      { path, message: `must be an integer from ${range.min} to ${range.max}` },
    ]);
  }
  return value;
}

/** Deduplicated, in the canonical SCOPES order, so equal keys have equal records. */
export function normaliseScopes(scopes: readonly string[]): Scope[] {
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) {
    throw new ValidationError(`Unknown scope(s): ${unknown.join(', ')}. Allowed: ${SCOPES.join(', ')}.`, [
      { path: 'scopes', message: `unknown scope(s): ${unknown.join(', ')}` },
    ]);
  }
  return SCOPES.filter((s) => scopes.includes(s));
}

export interface NewKeyInput {
  name: string;
  description?: string;
  scopes: readonly string[];
  role?: KeyRole;
  expires_in_days?: number;
  rate_limit?: RateLimitSettings;
}

/** `defaultRateLimit`: the deployment's defaults, for a key created without its own limits. */
export function newKeyRecord(
  input: NewKeyInput,
  keyId: string,
  generated: GeneratedSecret,
  actor: string,
  now: Date,
  defaultRateLimit: RateLimitSettings = DEFAULT_RATE_LIMIT,
): ApiKeyRecord {
  const name = input.name.trim();
  if (name.length < 1 || name.length > KEY_NAME_MAX) {
    throw new ValidationError(`name must be 1 to ${KEY_NAME_MAX} characters.`, [
      { path: 'name', message: `must be 1 to ${KEY_NAME_MAX} characters` },
    ]);
  }
  const description = (input.description ?? '').trim();
  if (description.length > KEY_DESCRIPTION_MAX) {
    throw new ValidationError(`description must be at most ${KEY_DESCRIPTION_MAX} characters.`, [
      { path: 'description', message: `must be at most ${KEY_DESCRIPTION_MAX} characters` },
    ]);
  }
  const role = input.role ?? 'client';
  const scopes = normaliseScopes(input.scopes);
  if (role === 'client' && scopes.length === 0) {
    throw new ValidationError('A client key needs at least one scope.', [
      { path: 'scopes', message: 'a client key needs at least one scope' },
    ]);
  }
  const days = checkRange(
    input.expires_in_days ?? KEY_EXPIRY_DAYS.default,
    KEY_EXPIRY_DAYS,
    'expires_in_days',
  );
  const at = now.toISOString();
  return {
    key_id: keyId,
    name,
    description,
    scopes,
    role,
    status: 'active',
    key_prefix: generated.keyPrefix,
    secret_hash: generated.secretHash,
    expires_at: addDays(now, days),
    created_at: at,
    created_by: actor,
    updated_at: at,
    rate_limit: validateRateLimit(input.rate_limit ?? { ...defaultRateLimit }),
  };
}

export interface RotationInput {
  grace_period_seconds?: number;
  expires_in_days?: number;
}

/**
 * With an authorizer cache of `ttl` seconds, an Allow cached just before the deadline would outlive
 * it by up to `ttl`. So the authorizer stops accepting the old secret `ttl` seconds early and cached
 * decisions run out by the announced end: never after it (rotation also flushes the cache).
 */
export interface RotationOptions {
  authorizerCacheTtlSeconds?: number;
}

/** The fields a rotation changes; `previous_*` absent means the old secret stops at once. */
export interface RotationChange {
  key_prefix: string;
  secret_hash: string;
  previous_secret_hash?: string;
  previous_valid_until?: string;
  expires_at: string;
  rotated_at: string;
  updated_at: string;
  /** The hash the rotation replaces, for an optimistic-concurrency condition. */
  expected_secret_hash: string;
  grace_period_ends_at: string;
}

export function planRotation(
  record: ApiKeyRecord,
  input: RotationInput,
  generated: GeneratedSecret,
  now: Date,
  options: RotationOptions = {},
): RotationChange {
  const status = effectiveStatus(record, now);
  if (status !== 'active') {
    throw new ConflictError(`The key is ${status} and cannot be rotated; create a new key instead.`);
  }
  const grace = checkRange(
    input.grace_period_seconds ?? GRACE_PERIOD_SECONDS.default,
    GRACE_PERIOD_SECONDS,
    'grace_period_seconds',
  );
  const expiresAt =
    input.expires_in_days === undefined
      ? record.expires_at
      : addDays(now, checkRange(input.expires_in_days, KEY_EXPIRY_DAYS, 'expires_in_days'));
  const at = now.toISOString();
  const graceEnds = new Date(now.getTime() + grace * 1000).toISOString();
  const acceptedFor = grace - (options.authorizerCacheTtlSeconds ?? 0);
  const previousUntil = new Date(now.getTime() + acceptedFor * 1000).toISOString();
  return {
    key_prefix: generated.keyPrefix,
    secret_hash: generated.secretHash,
    ...(acceptedFor > 0
      ? { previous_secret_hash: record.secret_hash, previous_valid_until: previousUntil }
      : {}),
    expires_at: expiresAt,
    rotated_at: at,
    updated_at: at,
    expected_secret_hash: record.secret_hash,
    grace_period_ends_at: graceEnds,
  };
}

/** A key record as listings read it: the hashes are never even fetched. */
export type KeyRecordWithoutSecrets = Omit<ApiKeyRecord, 'secret_hash' | 'previous_secret_hash'>;

/**
 * The deployment's spending caps, the same for every key and console user (SIS_DEFAULT_DAILY_INVESTIGATIONS,
 * SIS_MAX_RUNNING_INVESTIGATIONS); null: no cap.
 */
export interface InvestigationLimits {
  per_day: number | null;
  running_at_once: number | null;
}

export const NO_INVESTIGATION_LIMITS: InvestigationLimits = { per_day: null, running_at_once: null };

export function keySummary(
  record: KeyRecordWithoutSecrets,
  now: Date,
  limits: InvestigationLimits = NO_INVESTIGATION_LIMITS,
): ApiKeySummary {
  return {
    key_id: record.key_id,
    key_prefix: record.key_prefix,
    name: record.name,
    description: record.description,
    scopes: [...record.scopes],
    role: record.role,
    status: effectiveStatus(record, now),
    expires_at: record.expires_at,
    created_at: record.created_at,
    created_by: record.created_by,
    updated_at: record.updated_at,
    last_used_at: record.last_used_at ?? null,
    rotated_at: record.rotated_at ?? null,
    grace_period_ends_at:
      record.previous_valid_until && now.getTime() < ms(record.previous_valid_until)
        ? record.previous_valid_until
        : null,
    disabled_at: record.disabled_at ?? null,
    rate_limit: { ...record.rate_limit },
    investigation_limits: { ...limits },
  };
}

/** Case-insensitive substring match on the fields an operator recognises a key by. */
export function matchesSearch(
  record: Pick<ApiKeyRecord, 'name' | 'description' | 'key_prefix' | 'key_id'>,
  search?: string,
): boolean {
  const needle = search?.trim().toLowerCase();
  if (!needle) return true;
  return [record.name, record.description, record.key_prefix, record.key_id].some((field) =>
    field.toLowerCase().includes(needle),
  );
}
