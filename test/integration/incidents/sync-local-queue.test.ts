import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalQueue, type SqsConsumer, startLocalQueue } from '../../../local/sqs';

/**
 * The local queue's SQS semantics, driven through the real @aws-sdk/client-sqs: batching, whole-batch
 * failure, visibility timeout, receive counts, the DLQ, and SQS's own request validation.
 */
let queue: LocalQueue | undefined;

afterEach(async () => {
  await queue?.stop();
  queue = undefined;
});

function client(endpoint: string) {
  return new SQSClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

describe('local SQS queue', () => {
  it('delivers in batches of at most 10, each message until it succeeds', async () => {
    const batches: SQSEvent[] = [];
    const consumer: SqsConsumer = async (event) => {
      batches.push(event);
      // The first delivery of "flaky" fails; everything else succeeds.
      const flaky = event.Records.filter(
        (r) => r.body === 'flaky' && r.attributes.ApproximateReceiveCount === '1',
      );
      return { batchItemFailures: flaky.map((r) => ({ itemIdentifier: r.messageId })) };
    };
    queue = await startLocalQueue({ consumer, visibilityTimeoutSeconds: 0.1, batchingWindowMs: 30 });
    const sqs = client(queue.endpoint);
    for (let i = 0; i < 2; i++) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queue.queueUrl,
          Entries: Array.from({ length: 10 }, (_, j) => ({
            Id: `e${j}`,
            MessageBody: i === 0 && j === 0 ? 'flaky' : `m${i}-${j}`,
          })),
        }),
      );
    }
    await queue.idle();
    expect(batches.every((b) => b.Records.length <= 10)).toBe(true);
    const delivered = batches.flatMap((b) => b.Records.map((r) => r.body));
    expect(delivered.filter((b) => b === 'flaky')).toHaveLength(2);
    expect(new Set(delivered).size).toBe(20);
    const retry = batches
      .flatMap((b) => b.Records)
      .find((r) => r.body === 'flaky' && r.attributes.ApproximateReceiveCount === '2');
    expect(retry).toMatchObject({ eventSource: 'aws:sqs', eventSourceARN: queue.queueArn });
    expect(queue.dlq()).toEqual([]);
  });

  it('redelivers a whole batch whose invocation throws, then dead-letters it after 3 receives', async () => {
    let invocations = 0;
    queue = await startLocalQueue({
      consumer: async () => {
        invocations++;
        throw new Error('consumer crashed');
      },
      visibilityTimeoutSeconds: 0.05,
      batchingWindowMs: 5,
      onError: () => undefined,
    });
    await client(queue.endpoint).send(
      new SendMessageCommand({ QueueUrl: queue.queueUrl, MessageBody: 'doomed' }),
    );
    await queue.idle();
    expect(invocations).toBe(3);
    expect(queue.dlq()).toEqual([expect.objectContaining({ body: 'doomed', receiveCount: 3 })]);
    expect(queue.depth()).toBe(0);
  });

  it('keeps a failed message invisible for the visibility timeout', async () => {
    const seenAt: number[] = [];
    queue = await startLocalQueue({
      consumer: async (event) => {
        seenAt.push(Date.now());
        return seenAt.length === 1
          ? { batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] }
          : undefined;
      },
      visibilityTimeoutSeconds: 0.4,
      batchingWindowMs: 5,
    });
    await client(queue.endpoint).send(
      new SendMessageCommand({ QueueUrl: queue.queueUrl, MessageBody: 'later' }),
    );
    await queue.idle();
    expect(seenAt).toHaveLength(2);
    expect(seenAt[1]! - seenAt[0]!).toBeGreaterThanOrEqual(380);
  });

  it('answers invalid requests the way SQS does', async () => {
    queue = await startLocalQueue({ consumer: async () => undefined });
    const sqs = client(queue.endpoint);
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ Id: `e${i}`, MessageBody: 'x' }));
    await expect(
      sqs.send(new SendMessageBatchCommand({ QueueUrl: queue.queueUrl, Entries: entries(11) })),
    ).rejects.toMatchObject({
      name: 'TooManyEntriesInBatchRequest',
    });
    await expect(
      sqs.send(
        new SendMessageBatchCommand({ QueueUrl: queue.queueUrl, Entries: [...entries(1), ...entries(1)] }),
      ),
    ).rejects.toMatchObject({ name: 'BatchEntryIdsNotDistinct' });
    await expect(
      sqs.send(
        new SendMessageCommand({ QueueUrl: `${queue.endpoint}/000000000000/other`, MessageBody: 'x' }),
      ),
    ).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
  });
});
