import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../../shared/domain/cursor';
import { InvalidCursorError } from '../../shared/domain/errors';

const position = z.object({ pk: z.string(), sk: z.string() });
const binding = { keyId: 'k1', q: 'malware' };

describe('pagination cursor', () => {
  it('round-trips a position for the same query', () => {
    const cursor = encodeCursor({ pk: 'A', sk: 'B' }, binding);
    expect(decodeCursor(cursor, binding, position)).toEqual({ pk: 'A', sk: 'B' });
  });

  it('rejects a cursor replayed by another key or with other filters', () => {
    const cursor = encodeCursor({ pk: 'A', sk: 'B' }, binding);
    expect(() => decodeCursor(cursor, { ...binding, keyId: 'k2' }, position)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(cursor, { ...binding, q: 'other' }, position)).toThrow(InvalidCursorError);
  });

  it.each(['', 'not a cursor!', 'eyJ2IjoxfQ', Buffer.from('{"v":1,"b":"x","p":{}}').toString('base64url')])(
    'rejects malformed cursor %j',
    (bad) => {
      expect(() => decodeCursor(bad, binding, position)).toThrow(InvalidCursorError);
    },
  );

  it('rejects a well-formed envelope whose position fails the schema', () => {
    const cursor = encodeCursor({ pk: 1 }, binding);
    expect(() => decodeCursor(cursor, binding, position)).toThrow(InvalidCursorError);
  });
});
