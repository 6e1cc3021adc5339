import type { ParsedFeed } from './indicators';

/**
 * Whether a parsed download may replace the feed's last good set (docs/feeds.md, "What a refresh
 * refuses"). A refused download is an `error` and the last good set stays in use: a publisher's bad
 * day (a broken export, an error page served with 200, a truncated file) must not empty or poison
 * the set every investigation reads.
 */

/**
 * A download whose rejected rows outnumber its valid ones is not the feed's usual file. Real exports
 * reject a handful of rows (a malformed line, a network wider than the bound); the test fixtures,
 * deliberately dirty, reject at most 40 %.
 */
export const MAX_REJECTED_SHARE = 0.5;

/**
 * A download holding fewer than this share of the last good set's indicators is a collapse (OpenPhish
 * answering 200 with random bytes gave 15 → 1), not the publisher's list shrinking: it is refused
 * when the last good set held at least MIN_COUNT_FOR_COLLAPSE indicators.
 */
export const MIN_KEPT_SHARE = 0.1;
export const MIN_COUNT_FOR_COLLAPSE = 10;

export class FeedContentError extends Error {
  override readonly name = 'FeedContentError';
}

export function acceptParsedFeed(parsed: ParsedFeed, bytes: number, lastGoodCount = 0): void {
  const valid = parsed.indicators.length;
  if (valid === 0) {
    throw new FeedContentError(
      `the download holds no valid indicator (${parsed.rejected} malformed rows, ${bytes} bytes)`,
    );
  }
  const share = parsed.rejected / (valid + parsed.rejected);
  if (share > MAX_REJECTED_SHARE) {
    throw new FeedContentError(
      `${Math.round(share * 100)} % of the download's rows were rejected (${parsed.rejected} of ${valid + parsed.rejected}), more than the ${MAX_REJECTED_SHARE * 100} % a usable file has`,
    );
  }
  if (lastGoodCount >= MIN_COUNT_FOR_COLLAPSE && valid < lastGoodCount * MIN_KEPT_SHARE) {
    throw new FeedContentError(
      `the download holds ${valid} valid indicators against ${lastGoodCount} in the last good copy (under ${MIN_KEPT_SHARE * 100} %)`,
    );
  }
}
