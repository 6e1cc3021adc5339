import { METRIC } from '../../shared/metric-names';
import { countMetric, flushMetrics, logger } from '../../shared/observability';
import { feedsService } from '../../shared/services/feeds/feeds';
import * as z from '../../shared/zod';

const ScheduledRefresh = /* @__PURE__ */ (() =>
  z.object({ period_minutes: z.optional(z.number().check(z.int(), z.gte(1), z.lte(10_080))) }))();

/**
 * Scheduled (one EventBridge Scheduler schedule per refresh period on AWS, a timer per period in the
 * local runtime): refreshes the enabled feeds of that period, honouring each publisher's minimum
 * interval, and counts the feeds stale for a day (the stack's feeds alarm). A feed that fails keeps
 * its last good copy; the run itself fails only if the feeds' state cannot be read or written.
 */
export const handler = async (event?: unknown) => {
  const input = ScheduledRefresh.parse(event ?? {});
  try {
    const service = await feedsService();
    const feeds = await service.refreshPeriod(input.period_minutes);
    const stale = service.staleForADay(feeds);
    countMetric(METRIC.feedsStale, stale.length);
    if (stale.length) logger.warn('feeds stale for a day', { feeds: stale });
    return {
      refreshed: feeds
        .filter((f) => f.enabled)
        .map((f) => ({ name: f.name, status: f.status, ...(f.error ? { error: f.error } : {}) })),
    };
  } finally {
    flushMetrics();
  }
};
