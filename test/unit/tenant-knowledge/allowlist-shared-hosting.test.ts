import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import { newAllowlistEntry } from '../../../shared/domain/tenant-knowledge/allowlist';

const NOW = new Date('2026-11-27T10:00:00Z');
const add = (value: string) =>
  newAllowlistEntry({ type: 'domain', value, reason: 'Known partner' }, 'user:admin', NOW);

/** issue 36, item 5: a shared-hosting suffix is nobody's domain, so nobody can vouch for it. */
describe('allowlist domains on the Public Suffix List', () => {
  it.each(['github.io', 's3.amazonaws.com', 'blogspot.com', 'co.uk'])('refuses %s (a 400)', (value) => {
    expect(() => add(value)).toThrow(ValidationError);
    expect(() => add(value)).toThrow(/public suffix/);
  });

  it('accepts one site under a shared-hosting suffix, which one customer controls', () => {
    expect(add('partner.github.io').value).toBe('partner.github.io');
  });
});
