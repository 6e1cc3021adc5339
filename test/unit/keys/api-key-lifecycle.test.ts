import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../../shared/domain/core/errors';
import { generateKeyId, generateSecret } from '../../../shared/domain/keys/api-key';
import {
  type ApiKeyRecord,
  effectiveStatus,
  keySummary,
  lastUsedWriteDue,
  matchesSearch,
  newKeyRecord,
  normaliseScopes,
  planRotation,
  verifyKey,
} from '../../../shared/domain/keys/key-lifecycle';

const T0 = new Date('2026-11-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const DAY = 86_400_000;

function issue(overrides: Partial<Parameters<typeof newKeyRecord>[0]> = {}) {
  const keyId = generateKeyId();
  const secret = generateSecret(keyId);
  const record = newKeyRecord(
    { name: 'Copilot plugin', scopes: ['graph:read', 'incidents:read'], ...overrides },
    keyId,
    secret,
    'admin-key',
    T0,
  );
  return { record, secret };
}

function rotate(record: ApiKeyRecord, graceSeconds: number, now: Date, ttl = 0) {
  const next = generateSecret(record.key_id);
  const change = planRotation(record, { grace_period_seconds: graceSeconds }, next, now, {
    authorizerCacheTtlSeconds: ttl,
  });
  const { expected_secret_hash: _e, grace_period_ends_at: _g, ...fields } = change;
  const rotated: ApiKeyRecord = { ...record, ...fields };
  if (!change.previous_secret_hash) {
    delete rotated.previous_secret_hash;
    delete rotated.previous_valid_until;
  }
  return { rotated, next, change };
}

describe('new key record', () => {
  it('defaults to a client key, 90-day expiry and 10/s burst 20 without daily quota', () => {
    const { record, secret } = issue();
    expect(record).toMatchObject({
      role: 'client',
      status: 'active',
      expires_at: '2027-01-30T12:00:00.000Z',
      created_at: T0.toISOString(),
      created_by: 'admin-key',
      key_prefix: secret.keyPrefix,
      secret_hash: secret.secretHash,
      rate_limit: { rate_per_second: 10, burst: 20 },
      description: '',
    });
    expect(record.rate_limit.daily_quota).toBeUndefined();
  });

  it('normalises scopes to the canonical order without duplicates', () => {
    expect(normaliseScopes(['graph:read', 'investigations:read', 'graph:read'])).toEqual([
      'investigations:read',
      'graph:read',
    ]);
  });

  it.each([
    ['an unknown scope', { scopes: ['admin'] }],
    ['a client key without scopes', { scopes: [] }],
    ['an empty name', { name: '   ' }],
    ['expiry beyond 365 days', { expires_in_days: 366 }],
    ['expiry of 0 days', { expires_in_days: 0 }],
    ['a fractional expiry', { expires_in_days: 1.5 }],
    ['a zero rate', { rate_limit: { rate_per_second: 0, burst: 5 } }],
    ['a burst above 5000', { rate_limit: { rate_per_second: 10, burst: 5001 } }],
  ])('rejects %s', (_label, overrides) => {
    expect(() => issue(overrides as never)).toThrow(ValidationError);
  });

  it('allows an admin key without scopes (the role grants key management only)', () => {
    expect(issue({ role: 'admin', scopes: [] }).record.role).toBe('admin');
  });

  it('keeps custom limits', () => {
    const limits = { rate_per_second: 2.5, burst: 5, daily_quota: 1000 };
    expect(issue({ rate_limit: limits }).record.rate_limit).toEqual(limits);
  });
});

describe('status and expiry', () => {
  it('is active until expires_at, expired from that instant on', () => {
    const { record } = issue({ expires_in_days: 1 });
    expect(effectiveStatus(record, at(DAY - 1))).toBe('active');
    expect(effectiveStatus(record, at(DAY))).toBe('expired');
  });

  it('reports disabled before expired', () => {
    const { record } = issue({ expires_in_days: 1 });
    expect(effectiveStatus({ ...record, status: 'disabled' }, at(2 * DAY))).toBe('disabled');
  });

  it('fails closed on an unreadable expiry', () => {
    const { record } = issue();
    expect(effectiveStatus({ ...record, expires_at: 'garbage' }, T0)).toBe('expired');
  });
});

describe('key verification', () => {
  it('accepts the current secret of an active key', () => {
    const { record, secret } = issue();
    expect(verifyKey(record, secret.secret, T0)).toEqual({ ok: true, record, matched: 'current' });
  });

  it.each([
    ['unknown_key', () => verifyKey(undefined, generateSecret('aaaaaaaaaaaaaaaa').secret, T0)],
    [
      'wrong_secret',
      () => {
        const { record } = issue();
        return verifyKey(record, generateSecret(record.key_id).secret, T0);
      },
    ],
    [
      'disabled',
      () => {
        const { record, secret } = issue();
        return verifyKey({ ...record, status: 'disabled' }, secret.secret, T0);
      },
    ],
    [
      'expired',
      () => {
        const { record, secret } = issue({ expires_in_days: 1 });
        return verifyKey(record, secret.secret, at(DAY));
      },
    ],
  ])('denies with reason %s', (reason, run) => {
    expect(run()).toEqual({ ok: false, reason });
  });

  it('accepts old and new secrets during the grace period and only the new one after it', () => {
    const { record, secret: old } = issue();
    const { rotated, next, change } = rotate(record, 600, T0);
    expect(change.grace_period_ends_at).toBe(at(600_000).toISOString());
    expect(verifyKey(rotated, next.secret, at(1)).ok).toBe(true);
    expect(verifyKey(rotated, old.secret, at(599_999))).toMatchObject({ ok: true, matched: 'previous' });
    expect(verifyKey(rotated, old.secret, at(600_000))).toEqual({ ok: false, reason: 'grace_period_over' });
    expect(verifyKey(rotated, next.secret, at(600_000)).ok).toBe(true);
  });

  it('revokes the old secret at once with a grace period of 0', () => {
    const { record, secret: old } = issue();
    const { rotated, change } = rotate(record, 0, T0);
    expect(change.previous_secret_hash).toBeUndefined();
    expect(change.grace_period_ends_at).toBe(T0.toISOString());
    expect(verifyKey(rotated, old.secret, T0)).toEqual({ ok: false, reason: 'wrong_secret' });
  });

  it('never accepts the old secret of a key disabled during its grace period', () => {
    const { record, secret: old } = issue();
    const { rotated, next } = rotate(record, 3600, T0);
    const disabled: ApiKeyRecord = { ...rotated, status: 'disabled' };
    expect(verifyKey(disabled, old.secret, at(1))).toEqual({ ok: false, reason: 'disabled' });
    expect(verifyKey(disabled, next.secret, at(1))).toEqual({ ok: false, reason: 'disabled' });
  });

  it('keeps only one previous secret: a second rotation ends the first grace period', () => {
    const { record, secret: first } = issue();
    const { rotated, next: second } = rotate(record, 3600, T0);
    const { rotated: twice, next: third } = rotate(rotated, 3600, at(1000));
    expect(verifyKey(twice, first.secret, at(2000)).ok).toBe(false);
    expect(verifyKey(twice, second.secret, at(2000))).toMatchObject({ ok: true, matched: 'previous' });
    expect(verifyKey(twice, third.secret, at(2000))).toMatchObject({ ok: true, matched: 'current' });
  });

  it('stops accepting the old secret a cache TTL early so cached decisions end by the announced deadline', () => {
    const { record, secret: old } = issue();
    const { rotated, change } = rotate(record, 600, T0, 300);
    expect(change.grace_period_ends_at).toBe(at(600_000).toISOString());
    expect(verifyKey(rotated, old.secret, at(299_999)).ok).toBe(true);
    expect(verifyKey(rotated, old.secret, at(300_000)).ok).toBe(false);
    const { change: short } = rotate(record, 60, T0, 300);
    expect(short.previous_secret_hash).toBeUndefined();
  });
});

describe('rotation rules', () => {
  it('keeps the key ID and expiry, changes prefix and hash', () => {
    const { record } = issue();
    const { rotated } = rotate(record, 3600, at(5000));
    expect(rotated.key_id).toBe(record.key_id);
    expect(rotated.expires_at).toBe(record.expires_at);
    expect(rotated.key_prefix).not.toBe(record.key_prefix);
    expect(rotated.secret_hash).not.toBe(record.secret_hash);
    expect(rotated.previous_secret_hash).toBe(record.secret_hash);
    expect(rotated.rotated_at).toBe(at(5000).toISOString());
  });

  it('restarts the expiry clock when expires_in_days is given', () => {
    const { record } = issue();
    const change = planRotation(record, { expires_in_days: 30 }, generateSecret(record.key_id), at(DAY));
    expect(change.expires_at).toBe(at(31 * DAY).toISOString());
    expect(change.grace_period_ends_at).toBe(at(DAY).toISOString());
  });

  it('has no grace period unless one is asked for: the previous secret is not kept', () => {
    const { record, secret } = issue();
    const change = planRotation(record, {}, generateSecret(record.key_id), at(DAY));
    expect(change.previous_secret_hash).toBeUndefined();
    expect(change.grace_period_ends_at).toBe(at(DAY).toISOString());
    const rotated = { ...record, ...change };
    expect(verifyKey(rotated, secret.secret, at(DAY))).toMatchObject({ ok: false });
  });

  it.each([
    ['disabled', (r: ApiKeyRecord) => ({ ...r, status: 'disabled' as const }), T0],
    ['expired', (r: ApiKeyRecord) => r, at(91 * DAY)],
  ])('refuses to rotate a %s key with 409', (_label, mutate, now) => {
    const { record } = issue();
    expect(() => planRotation(mutate(record), {}, generateSecret(record.key_id), now)).toThrow(ConflictError);
  });

  it.each([-1, 604_801, 1.5])('rejects a grace period of %s seconds', (grace) => {
    const { record } = issue();
    expect(() =>
      planRotation(record, { grace_period_seconds: grace }, generateSecret(record.key_id), T0),
    ).toThrow(ValidationError);
  });
});

describe('last_used_at throttling', () => {
  it('is due when never written or a minute has passed', () => {
    expect(lastUsedWriteDue({}, T0)).toBe(true);
    expect(lastUsedWriteDue({ last_used_at: T0.toISOString() }, at(59_999))).toBe(false);
    expect(lastUsedWriteDue({ last_used_at: T0.toISOString() }, at(60_000))).toBe(true);
  });
});

describe('key summary', () => {
  it('never carries a secret, a hash or AWS plumbing', () => {
    const { record, secret } = issue();
    const { rotated, next } = rotate(
      { ...record, usage_identifier_key: 'sisu_x', apigw_key_id: 'abc', usage_plan_id: 'p' },
      3600,
      T0,
    );
    const json = JSON.stringify(keySummary(rotated, at(1)));
    for (const forbidden of [
      secret.secret,
      next.secret,
      secret.secretHash,
      next.secretHash,
      'sisu_x',
      'apigw',
    ]) {
      expect(json).not.toContain(forbidden);
    }
    expect(keySummary(rotated, at(1))).toMatchObject({
      status: 'active',
      grace_period_ends_at: at(3_600_000).toISOString(),
      last_used_at: null,
    });
    expect(keySummary(rotated, at(3_600_000)).grace_period_ends_at).toBeNull();
  });

  it('matches search text case-insensitively on name, description, key ID and prefix', () => {
    const { record } = issue({ name: 'Security Copilot', description: 'SOC team' });
    expect(matchesSearch(record, 'copilot')).toBe(true);
    expect(matchesSearch(record, 'soc TEAM')).toBe(true);
    expect(matchesSearch(record, record.key_prefix.toUpperCase())).toBe(true);
    expect(matchesSearch(record, record.key_id)).toBe(true);
    expect(matchesSearch(record, 'splunk')).toBe(false);
    expect(matchesSearch(record, undefined)).toBe(true);
  });
});
