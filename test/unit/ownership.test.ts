import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../shared/domain/core/errors';
import { assertOwner, isOwner } from '../../shared/domain/keys/ownership';

const caller = { keyId: 'aaaaaaaaaaaaaaaa' };

describe('session ownership', () => {
  it('returns the session to its owner', () => {
    const session = { session_id: 's1', owner_key_id: caller.keyId };
    expect(assertOwner(session, caller)).toBe(session);
    expect(isOwner(session, caller)).toBe(true);
  });

  it('answers 404 for a missing session', () => {
    expect(() => assertOwner(undefined, caller)).toThrow(NotFoundError);
    expect(() => assertOwner(null, caller)).toThrow(NotFoundError);
  });

  it('answers 403 for a session of another key, admin keys included', () => {
    const session = { owner_key_id: 'bbbbbbbbbbbbbbbb' };
    expect(() => assertOwner(session, caller)).toThrow(ForbiddenError);
    expect(() => assertOwner(session, { ...caller, role: 'admin' } as never)).toThrow(ForbiddenError);
  });

  it('does not treat a key ID prefix, a different case or an empty owner as the owner', () => {
    expect(isOwner({ owner_key_id: caller.keyId.toUpperCase() }, caller)).toBe(false);
    expect(isOwner({ owner_key_id: `${caller.keyId}x` }, caller)).toBe(false);
    expect(isOwner({ owner_key_id: '' }, { keyId: '' })).toBe(false);
  });
});
