import { perConfiguration } from '../../config';
import { FEED_NAMES, type FeedName } from '../../domain/feeds/names';
import { type FeedListing, type FeedState, feedListing } from '../../domain/feeds/status';
import {
  type FeedStateRepository,
  feedStateRepositoryFromConfig,
} from '../../store/feeds/feed-state-repository';
import { type FeedSetting, feedSettings } from './feed-settings';

/**
 * The admin list of the feeds (`GET /api/v1/admin/feeds`, the console's Admin > Feeds, `sis feeds
 * list`): each feed's settings from the configuration and its state from one Query of the feeds'
 * state items. Nothing else: the list-feeds function carries no object store, no downloader, no
 * parser (feeds.ts, which refreshes, loads those only when a refresh runs).
 */

/** Every feed's listing from the states and settings, at `now`. */
export function listingOf(
  states: Record<FeedName, FeedState>,
  settings: Record<FeedName, FeedSetting>,
  now: Date,
): FeedListing[] {
  return FEED_NAMES.map((name) =>
    feedListing(states[name], { enabled: settings[name].enabled, urls: settings[name].urls, now }),
  );
}

export interface FeedListDeps {
  settings: Record<FeedName, FeedSetting>;
  states: Pick<FeedStateRepository, 'all'>;
  now?: () => Date;
}

export class FeedList {
  constructor(private readonly deps: FeedListDeps) {}

  async list(): Promise<FeedListing[]> {
    return listingOf(
      await this.deps.states.all(),
      this.deps.settings,
      (this.deps.now ?? (() => new Date()))(),
    );
  }
}

const lists = /* @__PURE__ */ perConfiguration(
  (cfg) => new FeedList({ settings: feedSettings(cfg), states: feedStateRepositoryFromConfig(cfg) }),
);

/** The process's feed list. */
export function feedList(): FeedList {
  return lists();
}
