import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/observability';
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
const processor = new BatchProcessor(EventType.SQS);

async function storeRecord(record: SQSRecord): Promise<void> {
  try {
    const outcome = await processIncidentMessage(syncStores(), record.body);
    logger.debug('incident stored', { message_id: record.messageId, outcome });
  } catch (error) {
    const poison = error instanceof PoisonMessageError;
    logger[poison ? 'warn' : 'error']('incident message failed', {
      message_id: record.messageId,
      receive_count: record.attributes?.ApproximateReceiveCount,
      ...(poison ? { reason: error.message.slice(0, 300) } : { error: error as Error }),
    });
    throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, storeRecord, processor, { context });
