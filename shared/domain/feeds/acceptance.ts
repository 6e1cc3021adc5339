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

export class FeedContentError extends Error {
  override readonly name = 'FeedContentError';
}

export function acceptParsedFeed(parsed: ParsedFeed, bytes: number): void {
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
}
