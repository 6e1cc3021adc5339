import { Unzip, UnzipInflate } from 'fflate';
import { FeedContentError } from './acceptance';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** Compressed bytes handed to the inflater at once: deflate's ~1032:1 bound keeps each step under ~4 MB. */
const ZIP_PUSH_BYTES = 4096;

const mb = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

/**
 * The first file of a zip archive (Tranco's `top-1m.csv.zip`), or the body itself when not a zip.
 * Only that entry is inflated (every other entry is skipped unread), streamed, and stopped as soon
 * as it passes `maxBytes`: a zip bomb costs at most the cap and one step, and is a FeedContentError
 * (the refresh keeps the last good set). A corrupt archive is an Error.
 */
export function unzipFirst(body: Uint8Array, maxBytes: number): Uint8Array {
  if (!ZIP_MAGIC.every((byte, i) => body[i] === byte)) return body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  let entry: string | undefined;
  // Set from the inflater's callbacks: read through a function so the narrowing is not kept.
  let state = 'reading' as 'reading' | 'done' | 'over' | 'corrupt';
  const now = () => state;
  const unzip = new Unzip((file) => {
    if (entry !== undefined || file.name.endsWith('/')) return; // never started: never inflated
    entry = file.name;
    file.ondata = (error, chunk, final) => {
      if (state !== 'reading') return;
      if (error) {
        state = 'corrupt';
        return;
      }
      size += chunk.byteLength;
      if (size > maxBytes) state = 'over';
      else {
        chunks.push(chunk);
        if (final) state = 'done';
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for (let at = 0; at < body.length && state === 'reading'; at += ZIP_PUSH_BYTES) {
    unzip.push(body.subarray(at, at + ZIP_PUSH_BYTES), at + ZIP_PUSH_BYTES >= body.length);
  }
  if (now() === 'over') {
    throw new FeedContentError(`the archive\u2019s ${entry} inflates past the ${mb(maxBytes)} cap`);
  }
  if (now() !== 'done') throw new Error('the zip archive is corrupt or holds no file');
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
