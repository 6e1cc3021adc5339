import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import * as z from '../../zod';
import { InvalidCursorError } from './errors';

/**
 * Opaque, authenticated pagination cursors: the one cursor format of search, incidents, the graph
 * and the poll. A cursor is `<payload>.<tag>`: the payload carries the store's position plus a digest
 * of the query it belongs to (the caller's key ID and the filters), the tag is an HMAC-SHA256 of the
 * payload under the deployment's cursor secret. An edited position (a forged `after` or `seq`), a
 * cursor of another deployment, another key or other filters is refused as 400 before anything is
 * read. Positions are still re-validated with a schema after the tag checks.
 *
 * Rotation: cursors are issued under the current secret and accepted under the current or the
 * previous one, so pages in flight survive a secret change while the previous secret is kept.
 */
export type CursorBinding = Record<string, string | number | boolean | undefined | readonly string[]>;

export interface CursorSecrets {
  current: string;
  previous?: string | undefined;
}

/** A secret shorter than this is refused: the tag is only as strong as the key. */
export const CURSOR_SECRET_MIN_LENGTH = 32;
const TAG_BYTES = 16;

export class CursorSecretError extends Error {
  override readonly name = 'CursorSecretError';
}

export function assertCursorSecrets(secrets: CursorSecrets): CursorSecrets {
  for (const [name, value] of Object.entries(secrets)) {
    if (value !== undefined && value.length < CURSOR_SECRET_MIN_LENGTH) {
      throw new CursorSecretError(
        `The ${name} cursor secret must be at least ${CURSOR_SECRET_MIN_LENGTH} characters.`,
      );
    }
  }
  return secrets;
}

function bindingDigest(binding: CursorBinding): string {
  const canonical = JSON.stringify(
    Object.keys(binding)
      .sort()
      .map((k) => [k, binding[k] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

function tag(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, TAG_BYTES);
}

export function encodeCursor(position: unknown, binding: CursorBinding, secrets: CursorSecrets): string {
  const payload = Buffer.from(
    JSON.stringify({ v: 2, b: bindingDigest(binding), p: position }),
    'utf8',
  ).toString('base64url');
  return `${payload}.${tag(secrets.current, payload).toString('base64url')}`;
}

function authentic(payload: string, presented: Buffer, secrets: CursorSecrets): boolean {
  let ok = false;
  // Both secrets are always compared, in constant time, so timing tells nothing about which matched.
  for (const secret of [secrets.current, secrets.previous]) {
    if (secret !== undefined && timingSafeEqual(tag(secret, payload), presented)) ok = true;
  }
  return ok;
}

export function decodeCursor<T>(
  cursor: string,
  binding: CursorBinding,
  positionSchema: z.core.$ZodType<T>,
  secrets: CursorSecrets,
): T {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  const presented = match?.[2] ? Buffer.from(match[2], 'base64url') : undefined;
  if (!match?.[1] || presented?.length !== TAG_BYTES || !authentic(match[1], presented, secrets)) {
    throw new InvalidCursorError();
  }
  let envelope: { v?: unknown; b?: unknown; p?: unknown } | null;
  try {
    envelope = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (
    !envelope ||
    typeof envelope !== 'object' ||
    envelope.v !== 2 ||
    envelope.b !== bindingDigest(binding)
  ) {
    throw new InvalidCursorError();
  }
  const position = z.safeParse(positionSchema, envelope.p);
  if (!position.success) throw new InvalidCursorError();
  return position.data;
}

/** An encoder/decoder bound to one deployment's secrets, as the services use it. */
export interface CursorCodec {
  encode(position: unknown, binding: CursorBinding): string;
  decode<T>(cursor: string, binding: CursorBinding, positionSchema: z.core.$ZodType<T>): T;
}

export function cursorCodec(secrets: CursorSecrets): CursorCodec {
  assertCursorSecrets(secrets);
  return {
    encode: (position, binding) => encodeCursor(position, binding, secrets),
    decode: (cursor, binding, positionSchema) => decodeCursor(cursor, binding, positionSchema, secrets),
  };
}
