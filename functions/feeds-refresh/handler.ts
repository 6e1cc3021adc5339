import { METRIC } from '../../shared/metric-names';
import { countMetric, flushMetrics, logger } from '../../shared/observability';
import { feedsService } from '../../shared/services/feeds/feeds';

/**
 * Scheduled (one EventBridge Scheduler schedule at the shortest refresh period on AWS, a timer in the
 * local runtime): refreshes the enabled feeds whose refresh period is due, honouring each publisher's
 * minimum interval, and counts the feeds stale for a day (the stack's feeds alarm). The event's
 * content is not read. A feed that fails keeps its last good copy; the run itself fails only if the
 * feeds' state cannot be read or written.
 */
export const handler = async (_event?: unknown) => {
  try {
    const service = await feedsService();
    const feeds = await service.refreshDue();
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
