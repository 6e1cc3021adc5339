import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { flushMetrics, logger } from '../observability';

export interface QueueRecordWork {
  /** Names the records in the log lines: `<subject> stored`, `<subject> message failed`. */
  subject: string;
  /** Handles one record's body; what it returns is logged at debug level as the outcome. */
  handle: (body: string) => Promise<unknown>;
  /** A failure that redelivery cannot fix (logged as a warning with its reason, not as an error). */
  isPoison: (error: unknown) => boolean;
}

/**
 * The wrapper of an SQS consumer: each record is handled on its own and the failed ones are reported
 * in batchItemFailures (partial batch response), so only they are redelivered, and a record that keeps
 * failing moves to the DLQ after the queue's maxReceiveCount.
 */
export function queueConsumer(
  work: QueueRecordWork,
): (event: SQSEvent, context: Context) => Promise<SQSBatchResponse> {
  const processor = new BatchProcessor(EventType.SQS);
  async function handleRecord(record: SQSRecord): Promise<void> {
    try {
      const outcome = await work.handle(record.body);
      logger.debug(`${work.subject} stored`, { message_id: record.messageId, outcome });
    } catch (error) {
      const poison = work.isPoison(error);
      logger[poison ? 'warn' : 'error'](`${work.subject} message failed`, {
        message_id: record.messageId,
        receive_count: record.attributes?.ApproximateReceiveCount,
        ...(poison ? { reason: (error as Error).message.slice(0, 300) } : { error: error as Error }),
      });
      throw error;
    }
  }
  return async (event, context) => {
    try {
      return await processPartialResponse(event, handleRecord, processor, { context });
    } finally {
      flushMetrics();
    }
  };
}
