import type { FeedListing } from './status';

/**
 * What a manual refresh did, in words (the console's Admin > Feeds says it under the Refresh button):
 * the refresh answers with the feeds' list, and an operator who pressed the button must see more than
 * the same table again. Nothing enabled names the setting that enables one; otherwise how many were
 * refreshed and each one's result.
 */

export const NOTHING_ENABLED_TO_REFRESH =
  'No feed is enabled, so nothing was refreshed. Enable one with SIS_FEED_<NAME>_ENABLED=true (locally SIS_PUBLIC_SOURCES=on turns on every keyless feed the stack enables by default), or name it in -c feeds on AWS.';

export interface RefreshOutcome {
  headline: string;
  /** One line per refreshed (enabled) feed, in the list's order. */
  results: Array<{ name: FeedListing['name']; ok: boolean; text: string }>;
}

type Listed = Pick<FeedListing, 'name' | 'enabled' | 'status' | 'indicator_count' | 'error'>;

export function refreshOutcome(feeds: readonly Listed[]): RefreshOutcome {
  const refreshed = feeds.filter((feed) => feed.enabled);
  if (refreshed.length === 0) return { headline: NOTHING_ENABLED_TO_REFRESH, results: [] };
  const failed = refreshed.filter((feed) => feed.status === 'error').length;
  const count = `${refreshed.length} enabled feed${refreshed.length === 1 ? '' : 's'}`;
  const headline =
    failed === 0
      ? `Refreshed ${count}: all OK.`
      : `Refreshed ${count}: ${refreshed.length - failed} OK, ${failed} in error (each keeps its last good copy).`;
  return {
    headline,
    results: refreshed.map((feed) => {
      const indicators = `${feed.indicator_count.toLocaleString('en')} indicator${feed.indicator_count === 1 ? '' : 's'}`;
      if (feed.status === 'error') {
        return {
          name: feed.name,
          ok: false,
          text: `error: ${feed.error ?? 'the refresh failed'}; keeps ${indicators}`,
        };
      }
      const note = feed.status === 'stale' && feed.error ? ` (${feed.error})` : '';
      return {
        name: feed.name,
        ok: true,
        text: `${feed.status === 'ok' ? 'OK' : feed.status}, ${indicators}${note}`,
      };
    }),
  };
}
