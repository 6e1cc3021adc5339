import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FeedContentError } from '../../../shared/domain/feeds/acceptance';
import { parseFeed } from '../../../shared/domain/feeds/parsers';
import { unzipFirst } from '../../../shared/domain/feeds/unzip-first';

const MIB = 1_048_576;
const csv = new Uint8Array(readFileSync(join(__dirname, '../../fixtures/feeds/top-1m.csv')));
/** 100 MB of zeros compressed (about 100 KB): the entry a zip bomb hides; built once (seconds). */
const zeros = new Uint8Array(100 * MIB);
const bomb = zipSync({ 'top-1m.csv': zeros });
const behind = zipSync({ 'top-1m.csv': csv, 'bomb.csv': zeros });

/** issue 36, item 2: decompression stops at the feed's byte cap. */
describe('decompressing a feed archive', () => {
  it('stops a zip bomb at the 1 MiB cap with a FeedContentError, not after inflating it', () => {
    expect(bomb.byteLength).toBeLessThan(MIB);
    expect(() => unzipFirst(bomb, MIB)).toThrow(FeedContentError);
    expect(() => parseFeed('tranco', bomb, MIB)).toThrow(/top-1m.csv inflates past the 1 MB cap/);
  });

  it('inflates only the first entry: a bomb behind it is never read', () => {
    const started = performance.now();
    const parsed = parseFeed('tranco', behind, MIB);
    expect(parsed.indicators.map((i) => i.value)).toContain('google.com');
    // Inflating the 100 MB behind it takes several times this.
    expect(performance.now() - started).toBeLessThan(250);
  });
});
