import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import { covers, normaliseAllowlistValue } from '../../../shared/domain/tenant-knowledge/allowlist';

/**
 * Issue 36, item 11: an IPv4-mapped IPv6 network (`::ffff:a.b.c.d/n`, n ≥ 96) is the IPv4 network
 * a.b.c.d/(n-96); `::ffff:0:0/96` was stored as `0.0.0.0/96`, which matched nothing.
 */
describe('allowlist IPv4-mapped networks', () => {
  it('maps ::ffff:198.51.100.0/120 to 198.51.100.0/24, which covers the IPv4 address', () => {
    const value = normaliseAllowlistValue('cidr', '::ffff:198.51.100.9/120');
    expect(value).toBe('198.51.100.0/24');
    expect(covers({ type: 'cidr', value }, { type: 'ip', value: '198.51.100.200' })).toBe(true);
    expect(normaliseAllowlistValue('cidr', '::ffff:c633:6407/128')).toBe('198.51.100.7/32');
  });

  it('refuses ::ffff:0:0/96 as what it is, all of IPv4 (wider than /8)', () => {
    expect(() => normaliseAllowlistValue('cidr', '::ffff:0:0/96')).toThrow(ValidationError);
    expect(() => normaliseAllowlistValue('cidr', '::ffff:0:0/96')).toThrow('/0 is wider than /8');
    expect(() => normaliseAllowlistValue('cidr', '::ffff:10.0.0.0/103')).toThrow('/7 is wider than /8');
  });
});
