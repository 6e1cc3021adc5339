import { queueConsumer } from '../../shared/handlers/queue-consumer';
import {
  PoisonMessageError,
  processIncidentMessage,
  syncStores,
} from '../../shared/services/incidents/incident-sync';

/**
 * SQS consumer of the incident queue. Each record is stored on its own; failed records are reported
 * in batchItemFailures, so only they are redelivered, and after the queue's maxReceiveCount a
 * record that keeps failing (a poison message) moves to the DLQ.
 */
export const handler = queueConsumer({
  subject: 'incident',
  handle: (body) => processIncidentMessage(syncStores(), body),
  isPoison: (error) => error instanceof PoisonMessageError,
});
