import { type Config, perConfiguration } from '../../config';
import { NotFoundError } from '../../domain/core/errors';
import { generateKeyId, generateSecret, parseApiKey, randomIdentifier } from '../../domain/keys/api-key';
import {
  type AdminAction,
  type ApiKeyRecord,
  type ApiKeySummary,
  type AuditEntry,
  isUsable,
  type KeyVerification,
  keySummary,
  LAST_USED_WRITE_INTERVAL_MS,
  lastUsedWriteDue,
  matchesSearch,
  type NewKeyInput,
  newKeyRecord,
  planRotation,
  type RotationInput,
  verifyKey,
} from '../../domain/keys/key-lifecycle';
import type { RateLimitSettings } from '../../domain/keys/rate-limit';
import { logger } from '../../observability';
import {
  defaultRateLimitFromConfig,
  noUsagePlans,
  type UsagePlanPort,
  usagePlansFromConfig,
} from '../../platform/usage-plans';
import { type KeysRepository, keysRepositoryFromConfig } from '../../store/keys-repository';

/**
 * Key administration and authentication: the use cases behind the four admin routes, the
 * authorizer and the bootstrap command. Every change is audited in the same write as the change.
 */
export interface ApiKeyServiceDeps {
  repository: KeysRepository;
  usagePlans: UsagePlanPort;
  /** Seconds API Gateway caches authorizer decisions (0 = uncached, the default). */
  authorizerCacheTtlSeconds?: number;
  /** Limits of a key created without its own: the deployment's default plan's (built-in when omitted). */
  defaultRateLimit?: RateLimitSettings;
  now?: () => Date;
}

export interface IssuedKey {
  summary: ApiKeySummary;
  /** The full secret key: shown once, never stored or logged. */
  apiKey: string;
}

export interface RotatedKey extends IssuedKey {
  gracePeriodEndsAt: string;
}

type AuditDetails = AuditEntry['details'];

export class ApiKeyService {
  private readonly now: () => Date;

  constructor(private readonly deps: ApiKeyServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private audit(
    action: AdminAction,
    keyId: string,
    actor: string,
    at: Date,
    details: AuditDetails,
  ): AuditEntry {
    return { audit_id: randomIdentifier(), at: at.toISOString(), action, key_id: keyId, actor, details };
  }

  async create(
    input: NewKeyInput,
    actor: string,
    action: 'create' | 'bootstrap' = 'create',
  ): Promise<IssuedKey> {
    const now = this.now();
    const keyId = generateKeyId();
    const secret = generateSecret(keyId);
    const record: ApiKeyRecord = newKeyRecord(input, keyId, secret, actor, now, this.deps.defaultRateLimit);
    const identity = await this.deps.usagePlans.register(record);
    if (identity) Object.assign(record, identity);
    const audit = this.audit(action, keyId, actor, now, {
      name: record.name,
      role: record.role,
      scopes: record.scopes,
      key_prefix: record.key_prefix,
      expires_at: record.expires_at,
      rate_per_second: record.rate_limit.rate_per_second,
      burst: record.rate_limit.burst,
      daily_quota: record.rate_limit.daily_quota ?? null,
    });
    try {
      await this.deps.repository.create(record, audit);
    } catch (error) {
      if (identity) await this.deps.usagePlans.unregister(identity);
      throw error;
    }
    return { summary: keySummary(record, now), apiKey: secret.apiKey };
  }

  async list(search?: string): Promise<ApiKeySummary[]> {
    const now = this.now();
    const keys = await this.deps.repository.list();
    return keys.filter((key) => matchesSearch(key, search)).map((key) => keySummary(key, now));
  }

  private async require(keyId: string): Promise<ApiKeyRecord> {
    const record = await this.deps.repository.get(keyId);
    if (!record) throw new NotFoundError('No API key with this key_id.');
    return record;
  }

  async rotate(keyId: string, input: RotationInput, actor: string): Promise<RotatedKey> {
    const now = this.now();
    const record = await this.require(keyId);
    const secret = generateSecret(keyId);
    const change = planRotation(record, input, secret, now, {
      authorizerCacheTtlSeconds: this.deps.authorizerCacheTtlSeconds ?? 0,
    });
    await this.deps.repository.rotate(
      keyId,
      change,
      this.audit('rotate', keyId, actor, now, {
        key_prefix: change.key_prefix,
        previous_key_prefix: record.key_prefix,
        grace_period_ends_at: change.grace_period_ends_at,
        expires_at: change.expires_at,
      }),
    );
    await this.deps.usagePlans.flushAuthorizerCache();
    const { expected_secret_hash: _, grace_period_ends_at: __, ...fields } = change;
    const rotated: ApiKeyRecord = { ...record, ...fields };
    if (!change.previous_secret_hash) {
      delete rotated.previous_secret_hash;
      delete rotated.previous_valid_until;
    }
    return {
      summary: keySummary(rotated, now),
      apiKey: secret.apiKey,
      gracePeriodEndsAt: change.grace_period_ends_at,
    };
  }

  /** Idempotent: disabling a disabled key succeeds (and re-applies the gateway side, in case it failed). */
  async disable(keyId: string, actor: string): Promise<ApiKeySummary> {
    const now = this.now();
    const at = now.toISOString();
    let record = await this.require(keyId);
    const wasActive = record.status === 'active';
    const changed =
      wasActive &&
      (await this.deps.repository.disable(
        keyId,
        at,
        actor,
        this.audit('disable', keyId, actor, now, { outcome: 'disabled' }),
      ));
    if (changed) {
      record = { ...record, status: 'disabled', disabled_at: at, disabled_by: actor, updated_at: at };
    } else {
      record = await this.require(keyId);
      await this.deps.repository.appendAudit(
        this.audit('disable', keyId, actor, now, { outcome: 'already_disabled' }),
      );
    }
    await this.deps.usagePlans.disable(record);
    await this.deps.usagePlans.flushAuthorizerCache();
    return keySummary(record, now);
  }

  /** Whether an active, unexpired admin key exists (the bootstrap command refuses then). */
  async hasUsableAdmin(): Promise<boolean> {
    const now = this.now();
    const keys = await this.deps.repository.list();
    return keys.some((key) => key.role === 'admin' && isUsable(key, now));
  }

  /**
   * Verifies a presented key: format and checksum first (no read for garbage), then one strongly
   * consistent read. Writes nothing: `last_used_at` is stamped by `recordUse` only once the request
   * is known to be accepted (valid key, in scope).
   */
  async authenticate(presented: string | undefined): Promise<KeyVerification & { keyId?: string }> {
    if (!presented) return { ok: false, reason: 'missing' };
    const parsed = parseApiKey(presented);
    if (!parsed) return { ok: false, reason: 'malformed' };
    const record = await this.deps.repository.get(parsed.keyId);
    const verification = verifyKey(record, parsed.secret, this.now());
    return { ...verification, keyId: parsed.keyId };
  }

  /**
   * Stamps `last_used_at` for an accepted request: at most one conditional write per key per minute,
   * decided from the record already read (no second read). A failed stamp never fails the request.
   */
  async recordUse(record: Pick<ApiKeyRecord, 'key_id' | 'last_used_at'>): Promise<void> {
    const now = this.now();
    if (!lastUsedWriteDue(record, now)) return;
    await this.deps.repository
      .touchLastUsed(record.key_id, now, LAST_USED_WRITE_INTERVAL_MS)
      .catch((error: unknown) =>
        logger.warn('last_used_at not recorded', { key_id: record.key_id, error: error as Error }),
      );
  }
}

export function apiKeyServiceFromConfig(cfg: Config): ApiKeyService {
  return new ApiKeyService({
    repository: keysRepositoryFromConfig(cfg),
    usagePlans: usagePlansFromConfig(cfg),
    authorizerCacheTtlSeconds: cfg.SIS_AUTHORIZER_CACHE_TTL_SECONDS,
    defaultRateLimit: defaultRateLimitFromConfig(cfg),
  });
}

/**
 * The process-wide service (one per Lambda cold start). Rebuilt when the configuration object
 * changes, so a local runtime or test that resets the configuration gets fresh table names.
 */
export const apiKeyService = /* @__PURE__ */ perConfiguration(apiKeyServiceFromConfig);

/**
 * The service built without the API Gateway control plane, for the functions that use the keys
 * table only: the key listings (apiKeyDirectory) and the authorizer (key-authorizer.ts's
 * keyAuthenticator). The control plane's client would otherwise be bundled and loaded at every cold
 * start of a function that never calls it.
 */
export const keysTableService = /* @__PURE__ */ perConfiguration(
  (cfg) => new ApiKeyService({ repository: keysRepositoryFromConfig(cfg), usagePlans: noUsagePlans }),
);

/** Listing keys reads the keys table only. */
export const apiKeyDirectory: () => Pick<ApiKeyService, 'list'> = keysTableService;
