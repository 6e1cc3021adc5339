import type { FeedSet } from '../../feeds/compiled-set';
import type { FeedName } from '../../feeds/declarations';

/**
 * What the `feeds` tool reads: the compiled sets of the deployment's enabled feeds, loaded once per
 * container from the store the refresh writes (shared/services/feeds/feed-sets.ts). Never a request
 * to a feed's URL.
 */
export interface LoadedFeed {
  name: FeedName;
  set: FeedSet;
  /** When the set was last confirmed current (a good download or a 304). */
  last_refreshed_at?: string;
}

export interface LoadedFeeds {
  feeds: readonly LoadedFeed[];
  /** Enabled feeds without a usable compiled set (never refreshed, or unreadable). */
  unavailable: readonly FeedName[];
}

export interface FeedsPort {
  load(): Promise<LoadedFeeds>;
}
