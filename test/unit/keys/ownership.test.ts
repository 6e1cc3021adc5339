import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../../shared/domain/core/errors';
import {
  assertOwner,
  isOwner,
  startedBy,
  starterName,
  userOwnerId,
} from '../../../shared/domain/keys/ownership';

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

describe('who started a session', () => {
  const person = { sub: 'f1e2d3', username: 'ana', role: 'analyst' as const, groups: [] };

  it('records the person’s username, else the key’s name, else nothing', () => {
    expect(starterName({ keyName: 'SOC plugin' })).toEqual({ owner_name: 'SOC plugin' });
    expect(starterName({ keyName: 'ignored', user: person })).toEqual({ owner_name: 'ana' });
    expect(starterName({})).toEqual({});
    expect(starterName({ keyName: '' })).toEqual({});
  });

  it('answers the recorded name, whoever asks', () => {
    expect(
      startedBy({ owner_key_id: 'kkkkkkkkkkkkkkkk', owner_name: 'SOC plugin' }, { keyId: 'other' }),
    ).toEqual({
      kind: 'api_key',
      key_id: 'kkkkkkkkkkkkkkkk',
      name: 'SOC plugin',
    });
    expect(startedBy({ owner_key_id: userOwnerId('f1e2d3'), owner_name: 'ana' }, { keyId: 'x' })).toEqual({
      kind: 'user',
      name: 'ana',
    });
  });

  it('falls back, for a session without a name, to what the caller itself is', () => {
    const old = { owner_key_id: 'kkkkkkkkkkkkkkkk' };
    expect(startedBy(old, { keyId: 'kkkkkkkkkkkkkkkk', keyName: 'SOC plugin' }).name).toBe('SOC plugin');
    expect(startedBy(old, { keyId: 'user:f1e2d3', user: person }).name).toBeNull();
    const own = { owner_key_id: userOwnerId('f1e2d3') };
    expect(startedBy(own, { keyId: 'user:f1e2d3', user: person })).toEqual({ kind: 'user', name: 'ana' });
    expect(startedBy(own, { keyId: 'user:other', user: { ...person, sub: 'other' } }).name).toBeNull();
  });
});
