import { config } from '../../shared/config';
import { queueConsumer } from '../../shared/handlers/queue-consumer';
import { autoInvestigationContext } from '../../shared/services/incidents/auto-investigation';
import {
  PoisonMessageError,
  processIncidentMessage,
  syncStores,
} from '../../shared/services/incidents/incident-sync';

/**
 * SQS consumer of the incident queue. Each record is stored on its own; failed records are reported
 * in batchItemFailures, so only they are redelivered, and after the queue's maxReceiveCount a
 * record that keeps failing (a poison message) moves to the DLQ. With SIS_AUTO_INVESTIGATE_SEVERITY
 * on, a stored incident that qualifies is investigated, and follow-up records advance that.
 */
export const handler = queueConsumer({
  subject: 'incident',
  handle: (body) =>
    processIncidentMessage(
      syncStores(),
      body,
      config().SIS_AUTO_INVESTIGATE_SEVERITY === 'off' ? undefined : autoInvestigationContext,
    ),
  isPoison: (error) => error instanceof PoisonMessageError,
});
