import type { Config } from '../shared/config';
import { FEEDS, refreshPeriods } from '../shared/domain/feeds/declarations';
import { enabledFeeds } from '../shared/services/feeds/feed-settings';
import { type IntervalJob, startIntervalJob } from './interval-job';

/**
 * The local stand-in for the feeds' EventBridge Scheduler schedules (infra/constructs/feed-refresh.ts):
 * one timer per refresh period with an enabled feed, each running the real feeds-refresh handler for
 * its period, plus one refresh of every enabled feed at start-up (in the background: the service
 * answers at once, and a feed that cannot be reached fails softly with status `error`). Nothing runs
 * when no feed is enabled, which is the local default (docs/feeds.md).
 */
export interface FeedSchedules {
  /** The start-up refresh (tests wait for it). */
  startup: Promise<unknown>;
  stop(): Promise<void>;
}

export function startFeedSchedules(options: {
  cfg: Config;
  run: (event: { period_minutes?: number }) => Promise<unknown>;
  onError: (error: unknown) => void;
}): FeedSchedules {
  const enabled = enabledFeeds(options.cfg);
  if (enabled.length === 0) return { startup: Promise.resolve(), stop: async () => undefined };
  const jobs: IntervalJob<unknown>[] = refreshPeriods()
    .filter((minutes) => enabled.some((name) => FEEDS[name].refreshMinutes === minutes))
    .map((minutes) =>
      startIntervalJob({
        intervalSeconds: minutes * 60,
        run: () => options.run({ period_minutes: minutes }),
        onError: options.onError,
      }),
    );
  const startup = options.run({}).catch((error: unknown) => options.onError(error));
  return {
    startup,
    stop: async () => {
      await startup;
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
