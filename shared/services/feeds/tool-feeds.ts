import { perConfiguration } from '../../config';
import type { FeedsPort } from '../../domain/core/vocabulary';
import { feedStateRepositoryFromConfig } from '../../store/feeds/feed-state-repository';
import { enabledFeeds } from './enabled-feeds';
import { FeedSets } from './feed-sets';
import { feedObjectsFromConfig } from './feed-store';

/**
 * The run-tool step's feeds port: the enabled feeds' compiled sets, loaded once per container and
 * re-checked at most once a minute (feed-sets.ts). Reads the tenant's own store only: S3 with a
 * signed GET (no S3 client in the bundle), or the local directory.
 */
const toolSets = /* @__PURE__ */ perConfiguration(
  (cfg): FeedSets =>
    new FeedSets({
      states: feedStateRepositoryFromConfig(cfg),
      objects: feedObjectsFromConfig(cfg),
      enabled: enabledFeeds(cfg),
    }),
);

export function toolFeeds(): FeedsPort {
  return { load: () => toolSets().load() };
}
