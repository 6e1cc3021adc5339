import { perConfiguration } from '../../config';
import type { FeedsPort } from '../../domain/core/vocabulary';
import { s3GetObject } from '../../platform/feeds/s3-get';
import { DirectoryFeedObjects, type FeedObjectReader, feedObjectKey } from '../../store/feeds/feed-objects';
import { feedStateRepositoryFromConfig } from '../../store/feeds/feed-state-repository';
import { enabledFeeds } from './enabled-feeds';
import { FeedSets } from './feed-sets';

/**
 * The run-tool step's feeds port: the enabled feeds' compiled sets, loaded once per container and
 * re-checked at most once a minute (feed-sets.ts). Reads the tenant's own store only: S3 with a
 * signed GET (no S3 client in the bundle), or the local directory.
 */
const toolSets = /* @__PURE__ */ perConfiguration((cfg): FeedSets => {
  const bucket = cfg.SIS_FEEDS_BUCKET;
  const objects: FeedObjectReader | undefined = bucket
    ? { get: (name) => s3GetObject({ region: cfg.AWS_REGION, bucket, key: feedObjectKey(name) }) }
    : cfg.SIS_FEEDS_DIR
      ? new DirectoryFeedObjects(cfg.SIS_FEEDS_DIR)
      : undefined;
  return new FeedSets({ states: feedStateRepositoryFromConfig(cfg), objects, enabled: enabledFeeds(cfg) });
});

export function toolFeeds(): FeedsPort {
  return { load: () => toolSets().load() };
}
