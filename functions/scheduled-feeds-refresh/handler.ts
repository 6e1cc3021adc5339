import { scheduledHandler } from '../../shared/handlers/scheduled-handler';
import { logAlarmedFailure } from '../../shared/observability';
import { feedsService } from '../../shared/services/feeds/feeds';

/**
 * Scheduled (one EventBridge Scheduler schedule at the shortest refresh period on AWS, a timer in the
 * local runtime): refreshes the enabled feeds whose refresh period is due, honouring each publisher's
 * minimum interval, and reports the feeds stale for a day to the tenant's failures alarm. The event's
 * content is not read. A feed that fails keeps its last good copy; the run itself fails only if the
 * feeds' state cannot be read or written.
 */
export const handler = scheduledHandler(async (_event?: unknown) => {
  const service = feedsService();
  const feeds = await service.refreshDue();
  const stale = service.staleForADay(feeds);
  // Counted by the tenant's failures alarm (ALARMED_FAILURE): no alarm of its own at $0.10/month.
  if (stale.length) logAlarmedFailure('public feeds stale for a day', { feeds: stale });
  return {
    refreshed: feeds
      .filter((f) => f.enabled)
      .map((f) => ({ name: f.name, status: f.status, ...(f.error ? { error: f.error } : {}) })),
  };
});
