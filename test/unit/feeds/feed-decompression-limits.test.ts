import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FeedContentError } from '../../../shared/domain/feeds/acceptance';
import { parseFeed } from '../../../shared/domain/feeds/parsers';
import { unzipFirst } from '../../../shared/domain/feeds/unzip-first';

const MIB = 1_048_576;
const csv = new Uint8Array(readFileSync(join(__dirname, '../../fixtures/feeds/top-1m.csv')));
/** 100 MB of zeros compressed (about 100 KB): the entry a zip bomb hides; built once (seconds). */
const zeros = new Uint8Array(100 * MIB);
const bomb = zipSync({ 'top-1m.csv': zeros });
/**
 * The feed's entry, then a second entry whose deflate stream is corrupt (its first byte asks for the
 * reserved block type): inflating it would throw, so reading the first entry proves it was never read,
 * whatever the machine's speed.
 */
const behind = (() => {
  const archive = zipSync({ 'top-1m.csv': csv, 'bomb.csv': zeros });
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let at = 0;
  for (let entry = 0; entry < 2; entry++) {
    if (view.getUint32(at, true) !== 0x04034b50) throw new Error('not a local file header');
    const dataAt = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    if (entry === 1) archive.fill(0xff, dataAt, dataAt + 64);
    at = dataAt + view.getUint32(at + 18, true);
  }
  return archive;
})();

/** issue 36, item 2: decompression stops at the feed's byte cap. */
describe('decompressing a feed archive', () => {
  it('stops a zip bomb at the 1 MiB cap with a FeedContentError, not after inflating it', () => {
    expect(bomb.byteLength).toBeLessThan(MIB);
    expect(() => unzipFirst(bomb, MIB)).toThrow(FeedContentError);
    expect(() => parseFeed('tranco', bomb, MIB)).toThrow(/top-1m.csv inflates past the 1 MB cap/);
  });

  it('inflates only the first entry: a corrupt bomb behind it is never read', () => {
    expect(() => unzipSync(behind)).toThrow(); // what reading every entry would do
    const parsed = parseFeed('tranco', behind, MIB);
    expect(parsed.indicators.map((i) => i.value)).toContain('google.com');
  });
});
