import type { Config } from '../shared/config';
import { refreshPeriods } from '../shared/domain/feeds/declarations';
import { enabledFeeds } from '../shared/services/feeds/enabled-feeds';
import { startIntervalJob } from './interval-job';

/**
 * The local stand-in for the feeds' EventBridge Scheduler schedule (infra/constructs/feed-refresh.ts):
 * the real scheduled-feeds-refresh handler every shortest refresh period (each run refreshes the feeds whose own
 * period is due), plus one run at start-up, in the background: the service answers at once, and a
 * feed that cannot be reached fails softly with status `error`. Nothing runs when no feed is enabled,
 * which is the local default (docs/feeds.md).
 */
export interface FeedSchedules {
  /** The start-up refresh (tests wait for it). */
  startup: Promise<unknown>;
  stop(): Promise<void>;
}

export function startFeedSchedules(options: {
  cfg: Config;
  run: () => Promise<unknown>;
  onError: (error: unknown) => void;
}): FeedSchedules {
  if (enabledFeeds(options.cfg).length === 0)
    return { startup: Promise.resolve(), stop: async () => undefined };
  const job = startIntervalJob({
    intervalSeconds: Math.min(...refreshPeriods()) * 60,
    run: options.run,
    onError: options.onError,
  });
  const startup = job.runNow().catch((error: unknown) => options.onError(error));
  return {
    startup,
    stop: async () => {
      await startup;
      await job.stop();
    },
  };
}
