import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { InvalidCursorError } from './errors';

/**
 * Opaque pagination cursors. A cursor carries the store's position plus a digest of the query it
 * belongs to (the caller's key ID and the filters), so a cursor replayed with other filters or by
 * another key is rejected as 400 instead of silently paging something else. Positions are always
 * re-validated with a schema, so a tampered cursor can only ever name a position inside the
 * caller's own, already-authorised query.
 */
export type CursorBinding = Record<string, string | number | boolean | undefined | readonly string[]>;

function bindingDigest(binding: CursorBinding): string {
  const canonical = JSON.stringify(
    Object.keys(binding)
      .sort()
      .map((k) => [k, binding[k] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function encodeCursor(position: unknown, binding: CursorBinding): string {
  return Buffer.from(JSON.stringify({ v: 1, b: bindingDigest(binding), p: position }), 'utf8').toString(
    'base64url',
  );
}

export function decodeCursor<T>(cursor: string, binding: CursorBinding, positionSchema: z.ZodType<T>): T {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  const envelope = parsed as { v?: unknown; b?: unknown; p?: unknown } | null;
  if (
    !envelope ||
    typeof envelope !== 'object' ||
    envelope.v !== 1 ||
    envelope.b !== bindingDigest(binding)
  ) {
    throw new InvalidCursorError();
  }
  const position = positionSchema.safeParse(envelope.p);
  if (!position.success) throw new InvalidCursorError();
  return position.data;
}
