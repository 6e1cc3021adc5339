/** An answer's body read up to a byte cap, or why it was not (the caller words its own error). */
export type CappedBody =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; over: 'declared'; declared: number }
  | { ok: false; over: 'read' };

/**
 * The answer's body, read as a stream and abandoned as soon as it passes `maxBytes` (a
 * Content-Length over it is refused before reading anything): a huge or endless answer costs at
 * most `maxBytes` of memory and the time to read them.
 */
export async function readBodyUpTo(response: Response, maxBytes: number): Promise<CappedBody> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, over: 'declared', declared };
  }
  if (!response.body) return { ok: true, bytes: new Uint8Array(0) };
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, over: 'read' };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}
