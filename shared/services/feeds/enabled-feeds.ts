import type { Config } from '../../config';
import { FEED_NAMES, type FeedName, feedEnvPrefix } from '../../domain/feeds/names';

/**
 * The feeds this deployment enables (SIS_FEED_<NAME>_ENABLED): what planning a run and the run-tool
 * step need, from the names alone (feed-settings.ts adds the sources' URLs for the refresh).
 */
export function enabledFeeds(cfg: Config): FeedName[] {
  const env = cfg as unknown as Record<string, unknown>;
  return FEED_NAMES.filter((name) => env[`${feedEnvPrefix(name)}_ENABLED`] === true);
}
