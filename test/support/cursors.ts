/**
 * What a client can do with a cursor it holds: read its payload (cursors are signed, not encrypted)
 * and re-encode it with an edited position while keeping the original tag. The service must refuse
 * every such cursor with 400.
 */
export interface CursorEnvelope {
  v: number;
  b: string;
  p: unknown;
}

export function cursorEnvelope(cursor: string): CursorEnvelope {
  const [payload] = cursor.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as CursorEnvelope;
}

export function forgeCursor(cursor: string, position: unknown): string {
  const [, tag] = cursor.split('.');
  const payload = Buffer.from(JSON.stringify({ ...cursorEnvelope(cursor), p: position })).toString(
    'base64url',
  );
  return `${payload}.${tag ?? ''}`;
}
