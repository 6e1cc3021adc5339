import { scheduledHandler } from '../../shared/handlers/scheduled-handler';
import { lifecycleContext } from '../../shared/services/sessions/lifecycle-context';
import { sweepStaleSessions } from '../../shared/services/workflow/stale-session-sweeper';

/**
 * Scheduled every few minutes (an EventBridge rule on AWS, an interval in the local runtime): ends
 * sessions left initialized by a start that crashed before its run began, or left active by a run
 * whose end never reached them, after asking Step Functions what became of the run. The event's
 * content is not read. Failing (some session could not be checked) lets the next run retry. Sessions
 * it ends count as failed investigations (EMF, written by the wrapper).
 */
export const handler = scheduledHandler((_event?: unknown) => sweepStaleSessions(lifecycleContext()));
