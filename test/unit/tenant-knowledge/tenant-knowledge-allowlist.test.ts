import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  allowlistEntryId,
  covers,
  matchingEntries,
  newAllowlistEntry,
  normaliseAllowlistValue,
} from '../../../shared/domain/tenant-knowledge/allowlist';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const add = (type: Parameters<typeof newAllowlistEntry>[0]['type'], value: string, extra = {}) =>
  newAllowlistEntry({ type, value, reason: 'Known partner', ...extra }, 'user:admin', NOW);

function refusal(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('allowlist values', () => {
  it('normalises each type like an investigated entity, so the two always meet', () => {
    expect(normaliseAllowlistValue('ip', ' 2001:DB8:0:0::1 ')).toBe('2001:db8::1');
    expect(normaliseAllowlistValue('domain', 'Example.COM.')).toBe('example.com');
    expect(normaliseAllowlistValue('cidr', '198.51.100.77/24')).toBe('198.51.100.0/24');
    expect(normaliseAllowlistValue('cidr', '2001:db8:abcd::1/48')).toBe('2001:db8:abcd::/48');
    expect(normaliseAllowlistValue('user', 'CORP\\Alice')).toMatch(/alice/i);
  });

  it('refuses a CIDR wider than /8 (IPv4) or /32 (IPv6), saying why', () => {
    const v4 = refusal(() => add('cidr', '10.0.0.0/7'));
    expect(v4.details?.[0]).toMatchObject({ path: 'value' });
    expect(v4.message).toContain('/7 is wider than /8');
    expect(refusal(() => add('cidr', '2001:db8::/31')).message).toContain('/31 is wider than /32');
    expect(add('cidr', '10.0.0.0/8').value).toBe('10.0.0.0/8');
    expect(add('cidr', '2001:db8::/32').value).toBe('2001:db8::/32');
  });

  it('refuses values that are not of their type, an empty reason and odd expiries', () => {
    expect(refusal(() => add('ip', 'not-an-ip')).details?.[0]?.path).toBe('value');
    expect(refusal(() => add('cidr', '198.51.100.7')).message).toContain('not a CIDR range');
    expect(refusal(() => add('domain', '10.0.0.1')).message).toContain('use type ip');
    expect(
      refusal(() => newAllowlistEntry({ type: 'ip', value: '198.51.100.7', reason: '  ' }, 'a', NOW))
        .details?.[0]?.path,
    ).toBe('reason');
    expect(refusal(() => add('ip', '198.51.100.7', { expires_in_days: 0 })).details?.[0]?.path).toBe(
      'expires_in_days',
    );
  });

  it('derives the entry ID from the type and the normalised value (a duplicate has the same ID)', () => {
    expect(add('domain', 'EXAMPLE.com').entry_id).toBe(add('domain', 'example.com').entry_id);
    expect(add('domain', 'example.com').entry_id).not.toBe(add('host', 'example.com').entry_id);
    expect(allowlistEntryId('ip', '198.51.100.7')).toMatch(/^al_[0-9a-f]{24}$/);
  });
});

describe('what an entry covers', () => {
  it('a domain and all its subdomains, never a look-alike sharing the suffix', () => {
    const entry = add('domain', 'example.com');
    expect(covers(entry, { type: 'domain', value: 'example.com' })).toBe(true);
    expect(covers(entry, { type: 'domain', value: 'login.eu.example.com' })).toBe(true);
    expect(covers(entry, { type: 'domain', value: 'badexample.com' })).toBe(false);
    expect(covers(entry, { type: 'host', value: 'example.com' })).toBe(false);
  });

  it('the addresses of a network, of the same family only', () => {
    const entry = add('cidr', '198.51.100.0/24');
    expect(covers(entry, { type: 'ip', value: '198.51.100.200' })).toBe(true);
    expect(covers(entry, { type: 'ip', value: '198.51.101.1' })).toBe(false);
    expect(covers(entry, { type: 'ip', value: '2001:db8::1' })).toBe(false);
  });

  it('leaves expired entries out and puts the most specific entry first', () => {
    const wide = add('cidr', '198.51.0.0/16');
    const narrow = add('cidr', '198.51.100.0/24');
    const exact = add('ip', '198.51.100.7');
    const expired = { ...add('ip', '198.51.100.8'), expires_at: '2026-11-20T11:00:00.000Z' };
    const found = matchingEntries([wide, narrow, exact, expired], { type: 'ip', value: '198.51.100.7' }, NOW);
    expect(found.map((m) => m.value)).toEqual(['198.51.100.7', '198.51.100.0/24', '198.51.0.0/16']);
    expect(matchingEntries([expired], { type: 'ip', value: '198.51.100.8' }, NOW)).toEqual([]);
    expect(add('ip', '198.51.100.7', { expires_in_days: 30 }).expires_at).toBe('2026-12-20T12:00:00.000Z');
  });
});
