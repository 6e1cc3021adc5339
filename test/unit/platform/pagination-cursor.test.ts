import { describe, expect, it } from 'vitest';
import {
  assertCursorSecrets,
  CursorSecretError,
  cursorCodec,
  decodeCursor,
  encodeCursor,
} from '../../../shared/domain/core/cursor';
import { InvalidCursorError } from '../../../shared/domain/core/errors';
import * as z from '../../../shared/zod';

const position = z.object({ pk: z.string(), sk: z.string() });
const binding = { keyId: 'k1', q: 'malware' };
const secrets = { current: 'c'.repeat(40) };

/** What an attacker does with a readable cursor: decode, edit the position, encode again. */
function forge(cursor: string, edit: (envelope: { p: Record<string, unknown> }) => void): string {
  const [payload, tag] = cursor.split('.');
  const envelope = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
  edit(envelope);
  return `${Buffer.from(JSON.stringify(envelope)).toString('base64url')}.${tag}`;
}

describe('pagination cursor', () => {
  it('round-trips a position for the same query', () => {
    const cursor = encodeCursor({ pk: 'A', sk: 'B' }, binding, secrets);
    expect(decodeCursor(cursor, binding, position, secrets)).toEqual({ pk: 'A', sk: 'B' });
  });

  it('rejects a cursor replayed by another key or with other filters', () => {
    const cursor = encodeCursor({ pk: 'A', sk: 'B' }, binding, secrets);
    expect(() => decodeCursor(cursor, { ...binding, keyId: 'k2' }, position, secrets)).toThrow(
      InvalidCursorError,
    );
    expect(() => decodeCursor(cursor, { ...binding, q: 'other' }, position, secrets)).toThrow(
      InvalidCursorError,
    );
  });

  it('rejects a re-encoded cursor with an edited position (its tag no longer matches)', () => {
    const cursor = encodeCursor({ pk: 'A', sk: 'B' }, binding, secrets);
    const forged = forge(cursor, (envelope) => {
      envelope.p.sk = 'Z';
    });
    expect(forged).not.toBe(cursor);
    expect(() => decodeCursor(forged, binding, position, secrets)).toThrow(InvalidCursorError);
  });

  it("rejects another deployment's cursor, accepts the previous secret's during a rotation", () => {
    const old = encodeCursor({ pk: 'A', sk: 'B' }, binding, secrets);
    const other = { current: 'o'.repeat(40) };
    expect(() => decodeCursor(old, binding, position, other)).toThrow(InvalidCursorError);
    const rotated = { current: 'n'.repeat(40), previous: secrets.current };
    expect(decodeCursor(old, binding, position, rotated)).toEqual({ pk: 'A', sk: 'B' });
    const issuedAfter = encodeCursor({ pk: 'C', sk: 'D' }, binding, rotated);
    expect(() => decodeCursor(issuedAfter, binding, position, secrets)).toThrow(InvalidCursorError);
  });

  it.each([
    '',
    'not a cursor!',
    'eyJ2IjoxfQ',
    Buffer.from('{"v":1,"b":"x","p":{}}').toString('base64url'),
    `${Buffer.from('{"v":2,"b":"x","p":{}}').toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`,
  ])('rejects malformed cursor %j', (bad) => {
    expect(() => decodeCursor(bad, binding, position, secrets)).toThrow(InvalidCursorError);
  });

  it('rejects a well-formed envelope whose position fails the schema', () => {
    const cursor = encodeCursor({ pk: 1 }, binding, secrets);
    expect(() => decodeCursor(cursor, binding, position, secrets)).toThrow(InvalidCursorError);
  });

  it('refuses short secrets, current or previous', () => {
    const both = { current: 'a'.repeat(32), previous: 'b'.repeat(32) };
    expect(assertCursorSecrets(both)).toEqual(both);
    expect(() => assertCursorSecrets({ current: 'short' })).toThrow(CursorSecretError);
    expect(() => assertCursorSecrets({ current: 'a'.repeat(32), previous: 'x' })).toThrow(CursorSecretError);
    expect(() => cursorCodec({ current: 'x'.repeat(31) })).toThrow(CursorSecretError);
  });
});
