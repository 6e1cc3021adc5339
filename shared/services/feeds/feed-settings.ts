import type { Config } from '../../config';

export { enabledFeeds } from './enabled-feeds';

import { FEED_NAMES, type FeedName, feedEnvPrefix } from '../../domain/feeds/names';
import { FEED_SOURCES } from '../../domain/feeds/sources';

/** A feed as this deployment configures it (SIS_FEED_<NAME>_ENABLED / _URL). */
export interface FeedSetting {
  name: FeedName;
  enabled: boolean;
  urls: readonly string[];
}

export function feedSettings(cfg: Config): Record<FeedName, FeedSetting> {
  const env = cfg as unknown as Record<string, unknown>;
  const out = {} as Record<FeedName, FeedSetting>;
  for (const name of FEED_NAMES) {
    const prefix = feedEnvPrefix(name);
    const url = env[`${prefix}_URL`];
    out[name] = {
      name,
      enabled: env[`${prefix}_ENABLED`] === true,
      urls: typeof url === 'string' && url.trim() ? url.trim().split(/\s+/) : FEED_SOURCES[name].urls,
    };
  }
  return out;
}
