import { FEEDS, type FeedName } from './declarations';
import { howToEnableFeed } from './names';

/**
 * A feed's state as the refresh leaves it (stored by shared/store/feeds) and as operators see it
 * (`GET /api/v1/admin/feeds`, the console's Admin > Feeds, `sis feeds list`).
 */

export const FEED_STATUSES = ['ok', 'error', 'stale', 'disabled'] as const;
export type FeedStatus = (typeof FEED_STATUSES)[number];

/** Staleness: a feed whose last good copy is older than this many refresh periods. */
export const STALE_PERIODS = 3;

export interface FeedState {
  name: FeedName;
  /** The last time the feed's content was confirmed current: a good download or a 304. */
  last_refreshed_at?: string;
  last_attempt_at?: string;
  /** Outcome of the last attempt; an error keeps the last good copy (and its count). */
  outcome?: 'ok' | 'error';
  error?: string;
  /** Indicators in the last good copy. */
  indicator_count?: number;
  /** Rows of the last good download that did not parse. */
  rejected?: number;
  /** Conditional-request validators of the last good download, per source URL. */
  validators?: Record<string, { etag?: string; last_modified?: string }>;
  /** compiled_at of the stored compiled set: the tool step reloads a set when this changes. */
  version?: string;
  /**
   * The key of that set in the feeds' store (feeds/<NAME>/<version>.sisfeed.gz); absent in the
   * states written before sets were versioned, whose set is the feed's one legacy object.
   */
  object_key?: string;
  /** When the publisher says it generated the file. */
  source_generated_at?: string;
}

export interface FeedListing {
  name: FeedName;
  enabled: boolean;
  /** The source URL(s) with any credential removed. */
  url: string;
  last_refreshed_at: string | null;
  indicator_count: number;
  status: FeedStatus;
  error?: string;
  /** A disabled feed only: how an operator turns it on. */
  how_to_enable?: string;
}

export function staleAfterMs(name: FeedName): number {
  return FEEDS[name].refreshMinutes * 60_000 * STALE_PERIODS;
}

/** Whether the last good copy is older than three refresh periods (or there is none). */
export function isStale(state: Pick<FeedState, 'name' | 'last_refreshed_at'>, now: Date): boolean {
  if (!state.last_refreshed_at) return true;
  return now.getTime() - Date.parse(state.last_refreshed_at) > staleAfterMs(state.name);
}

export function feedStatus(
  state: FeedState,
  enabled: boolean,
  now: Date,
): { status: FeedStatus; error?: string } {
  if (!enabled) return { status: 'disabled' };
  if (state.outcome === 'error') return { status: 'error', error: state.error ?? 'The last refresh failed.' };
  if (!state.last_refreshed_at) return { status: 'stale', error: 'Not refreshed yet.' };
  if (isStale(state, now)) {
    return { status: 'stale', error: `Last refreshed more than ${STALE_PERIODS} refresh periods ago.` };
  }
  return { status: 'ok' };
}

/** Credentials never leave the service: query parameters naming a key are masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    for (const key of [...parsed.searchParams.keys()]) {
      if (/key|token|secret|password/i.test(key)) parsed.searchParams.set(key, 'REDACTED');
    }
    if (parsed.username || parsed.password) {
      parsed.username = '';
      parsed.password = '';
    }
    return parsed.toString();
  } catch {
    return url;
  }
}

export function feedListing(
  state: FeedState,
  options: { enabled: boolean; urls: readonly string[]; now: Date },
): FeedListing {
  const { status, error } = feedStatus(state, options.enabled, options.now);
  return {
    name: state.name,
    enabled: options.enabled,
    url: options.urls.map(redactUrl).join(' '),
    last_refreshed_at: state.last_refreshed_at ?? null,
    indicator_count: state.indicator_count ?? 0,
    status,
    ...(error ? { error } : {}),
    ...(options.enabled ? {} : { how_to_enable: howToEnableFeed(state.name) }),
  };
}
