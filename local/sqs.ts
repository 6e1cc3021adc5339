import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { localLambdaContext } from './lambda-context';

/**
 * The local runtime's incident queue: an in-process queue with the SQS semantics the service relies
 * on, behind an HTTP endpoint on 127.0.0.1 that speaks the subset of the SQS JSON 1.0 protocol the
 * service uses (SendMessage, SendMessageBatch with per-message DelaySeconds, GetQueueUrl). The real `@aws-sdk/client-sqs` reaches it
 * with `endpoint: SIS_SQS_ENDPOINT`, exactly as it reaches SQS on AWS.
 *
 * Delivery follows an SQS event source mapping with ReportBatchItemFailures: batches of up to
 * `batchSize` visible messages invoke the REAL consumer handler with an SQSEvent; a message is deleted
 * when the handler succeeds for it; one listed in `batchItemFailures` (or every message of a batch
 * whose invocation throws) becomes visible again after the visibility timeout; a message received
 * `maxReceiveCount` times without success is moved to the dead-letter queue, which tests inspect.
 */
export type SqsConsumer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

export interface LocalQueueOptions {
  consumer: SqsConsumer;
  queueName?: string;
  /** 0 picks a free port. */
  port?: number;
  batchSize?: number;
  visibilityTimeoutSeconds?: number;
  maxReceiveCount?: number;
  /** How long a first message waits for others to join its batch (Lambda's batching window). */
  batchingWindowMs?: number;
  region?: string;
  onError?: (error: unknown, info: { stage: string }) => void;
}

export interface DeadLetter {
  messageId: string;
  body: string;
  receiveCount: number;
  sentAt: string;
  movedAt: string;
}

export interface LocalQueue {
  endpoint: string;
  queueUrl: string;
  queueArn: string;
  /** Messages moved to the dead-letter queue so far. */
  dlq(): DeadLetter[];
  /** Messages not yet deleted or dead-lettered (visible or in flight). */
  depth(): number;
  /** Resolves once every message sent so far has been consumed or dead-lettered. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

interface Message {
  messageId: string;
  body: string;
  md5: string;
  sentAtMs: number;
  firstReceiveAtMs?: number;
  receiveCount: number;
  visibleAtMs: number;
}

const ACCOUNT_ID = '000000000000';
/** SQS's own limits, enforced so the local queue refuses what AWS would. */
const MAX_BATCH_ENTRIES = 10;
const MAX_MESSAGE_BYTES = 256 * 1024;
const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
const BATCH_ENTRY_ID = /^[A-Za-z0-9_-]{1,80}$/;
const MAX_DELAY_SECONDS = 900;

class SqsError extends Error {
  constructor(
    readonly type: string,
    readonly queryCode: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

function consumerContext(functionName: string): Context {
  return localLambdaContext(functionName, 900_000);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        reject(
          new SqsError(
            'com.amazonaws.sqs#BatchRequestTooLong',
            'AWS.SimpleQueueService.BatchRequestTooLong',
            'Request too long.',
          ),
        );
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startLocalQueue(options: LocalQueueOptions): Promise<LocalQueue> {
  const queueName = options.queueName ?? 'sis-local-incidents';
  const region = options.region ?? 'us-east-1';
  const batchSize = Math.min(MAX_BATCH_ENTRIES, Math.max(1, options.batchSize ?? MAX_BATCH_ENTRIES));
  const visibilityMs = (options.visibilityTimeoutSeconds ?? 30) * 1000;
  const maxReceiveCount = options.maxReceiveCount ?? 3;
  const batchingWindowMs = options.batchingWindowMs ?? 20;
  const queueArn = `arn:aws:sqs:${region}:${ACCOUNT_ID}:${queueName}`;

  const messages = new Map<string, Message>();
  const deadLetters: DeadLetter[] = [];
  let inFlight = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let idleWaiters: (() => void)[] = [];

  const notifyIfIdle = () => {
    if (messages.size > 0 || inFlight) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  };

  let timerDueAt = Number.POSITIVE_INFINITY;
  /** Runs the pump after `delayMs`, unless it is already due sooner. */
  const schedule = (delayMs: number) => {
    if (stopped) return;
    const due = Date.now() + Math.max(0, delayMs);
    if (timer && timerDueAt <= due) return;
    if (timer) clearTimeout(timer);
    timerDueAt = due;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerDueAt = Number.POSITIVE_INFINITY;
        void pump();
      },
      Math.max(0, delayMs),
    );
  };

  const scheduleNext = () => {
    if (messages.size === 0) return notifyIfIdle();
    const now = Date.now();
    const nextVisible = Math.min(...[...messages.values()].map((m) => m.visibleAtMs));
    schedule(nextVisible <= now ? 0 : nextVisible - now);
  };

  const toRecord = (message: Message): SQSRecord => ({
    messageId: message.messageId,
    receiptHandle: `${message.messageId}#${message.receiveCount}`,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAtMs),
      SenderId: ACCOUNT_ID,
      ApproximateFirstReceiveTimestamp: String(message.firstReceiveAtMs ?? Date.now()),
    },
    messageAttributes: {},
    md5OfBody: message.md5,
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  });

  async function pump(): Promise<void> {
    if (inFlight || stopped) return;
    const now = Date.now();
    const visible = [...messages.values()]
      .filter((m) => m.visibleAtMs <= now)
      .sort((a, b) => a.sentAtMs - b.sentAtMs);
    const batch: Message[] = [];
    for (const message of visible) {
      if (batch.length >= batchSize) break;
      // As SQS does: the receive that would exceed maxReceiveCount moves the message instead.
      if (message.receiveCount >= maxReceiveCount) {
        messages.delete(message.messageId);
        deadLetters.push({
          messageId: message.messageId,
          body: message.body,
          receiveCount: message.receiveCount,
          sentAt: new Date(message.sentAtMs).toISOString(),
          movedAt: new Date(now).toISOString(),
        });
        continue;
      }
      message.receiveCount++;
      message.firstReceiveAtMs ??= now;
      message.visibleAtMs = now + visibilityMs;
      batch.push(message);
    }
    if (batch.length === 0) return scheduleNext();

    inFlight = true;
    let failed = new Set<string>();
    try {
      const response = await options.consumer({ Records: batch.map(toRecord) }, consumerContext(queueName));
      const failures = response?.batchItemFailures ?? [];
      failed = new Set(failures.map((f) => f.itemIdentifier));
      // Lambda treats an unknown or empty identifier as a failure of the whole batch.
      if (failures.some((f) => !f.itemIdentifier || !batch.some((m) => m.messageId === f.itemIdentifier))) {
        failed = new Set(batch.map((m) => m.messageId));
      }
    } catch (error) {
      failed = new Set(batch.map((m) => m.messageId));
      options.onError?.(error, { stage: 'consumer' });
    } finally {
      inFlight = false;
    }
    for (const message of batch) {
      if (!failed.has(message.messageId)) messages.delete(message.messageId);
    }
    scheduleNext();
  }

  const enqueue = (body: string, delaySeconds: unknown = 0): Message => {
    if (typeof body !== 'string' || body.length === 0) {
      throw new SqsError(
        'com.amazonaws.sqs#InvalidParameterValue',
        'InvalidParameterValue',
        'The message body must not be empty.',
      );
    }
    if (Buffer.byteLength(body, 'utf8') > MAX_MESSAGE_BYTES) {
      throw new SqsError(
        'com.amazonaws.sqs#InvalidParameterValue',
        'InvalidParameterValue',
        'The message is too long.',
      );
    }
    // SQS's per-message delay: a whole number of seconds, 0 to 900.
    const delay = delaySeconds ?? 0;
    if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) {
      throw new SqsError(
        'com.amazonaws.sqs#InvalidParameterValue',
        'InvalidParameterValue',
        `DelaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}.`,
      );
    }
    const waitMs = Math.max(batchingWindowMs, delay * 1000);
    const message: Message = {
      messageId: randomUUID(),
      body,
      md5: md5(body),
      sentAtMs: Date.now(),
      receiveCount: 0,
      visibleAtMs: Date.now() + waitMs,
    };
    messages.set(message.messageId, message);
    if (!inFlight) schedule(waitMs);
    return message;
  };

  const checkQueue = (input: Record<string, unknown>) => {
    const url = typeof input.QueueUrl === 'string' ? input.QueueUrl : '';
    if (!url.endsWith(`/${ACCOUNT_ID}/${queueName}`)) {
      throw new SqsError(
        'com.amazonaws.sqs#QueueDoesNotExist',
        'AWS.SimpleQueueService.NonExistentQueue',
        'The specified queue does not exist.',
      );
    }
  };

  let queueUrl = '';
  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    GetQueueUrl: (input) => {
      if (input.QueueName !== queueName) {
        throw new SqsError(
          'com.amazonaws.sqs#QueueDoesNotExist',
          'AWS.SimpleQueueService.NonExistentQueue',
          'The specified queue does not exist.',
        );
      }
      return { QueueUrl: queueUrl };
    },
    SendMessage: (input) => {
      checkQueue(input);
      const message = enqueue(input.MessageBody as string, input.DelaySeconds);
      return { MessageId: message.messageId, MD5OfMessageBody: message.md5 };
    },
    SendMessageBatch: (input) => {
      checkQueue(input);
      const entries = Array.isArray(input.Entries) ? (input.Entries as Record<string, unknown>[]) : [];
      if (entries.length === 0) {
        throw new SqsError(
          'com.amazonaws.sqs#EmptyBatchRequest',
          'AWS.SimpleQueueService.EmptyBatchRequest',
          'The batch request does not contain any entries.',
        );
      }
      if (entries.length > MAX_BATCH_ENTRIES) {
        throw new SqsError(
          'com.amazonaws.sqs#TooManyEntriesInBatchRequest',
          'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
          'Maximum number of entries per request are 10.',
        );
      }
      const ids = entries.map((e) => e.Id);
      if (new Set(ids).size !== ids.length) {
        throw new SqsError(
          'com.amazonaws.sqs#BatchEntryIdsNotDistinct',
          'AWS.SimpleQueueService.BatchEntryIdsNotDistinct',
          'Two or more batch entries have the same Id.',
        );
      }
      if (ids.some((id) => typeof id !== 'string' || !BATCH_ENTRY_ID.test(id))) {
        throw new SqsError(
          'com.amazonaws.sqs#InvalidBatchEntryId',
          'AWS.SimpleQueueService.InvalidBatchEntryId',
          'A batch entry Id is invalid.',
        );
      }
      const total = entries.reduce(
        (sum, e) => sum + Buffer.byteLength(String(e.MessageBody ?? ''), 'utf8'),
        0,
      );
      if (total > MAX_MESSAGE_BYTES) {
        throw new SqsError(
          'com.amazonaws.sqs#BatchRequestTooLong',
          'AWS.SimpleQueueService.BatchRequestTooLong',
          'The batch request is too long.',
        );
      }
      const Successful: unknown[] = [];
      const Failed: unknown[] = [];
      for (const entry of entries) {
        try {
          const message = enqueue(entry.MessageBody as string, entry.DelaySeconds);
          Successful.push({ Id: entry.Id, MessageId: message.messageId, MD5OfMessageBody: message.md5 });
        } catch (error) {
          const sqsError = error as SqsError;
          Failed.push({
            Id: entry.Id,
            SenderFault: true,
            Code: sqsError.queryCode,
            Message: sqsError.message,
          });
        }
      }
      return { Successful, Failed };
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith('AmazonSQS.') ? target.slice('AmazonSQS.'.length) : '';
    const body = await readBody(req);
    const run = operations[operation];
    if (req.method !== 'POST' || !run) {
      throw new SqsError(
        'com.amazonaws.sqs#UnsupportedOperation',
        'AWS.SimpleQueueService.UnsupportedOperation',
        `The local queue does not support ${operation || 'this request'}.`,
      );
    }
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body || '{}') as Record<string, unknown>;
    } catch {
      throw new SqsError(
        'com.amazonaws.sqs#InvalidParameterValue',
        'InvalidParameterValue',
        'The request body is not JSON.',
      );
    }
    const output = JSON.stringify(run(input));
    res.writeHead(200, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': randomUUID(),
      'content-length': Buffer.byteLength(output),
    });
    res.end(output);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const sqsError =
        error instanceof SqsError
          ? error
          : new SqsError('com.amazonaws.sqs#InternalError', 'InternalError', 'Internal error.', 500);
      if (!(error instanceof SqsError)) options.onError?.(error, { stage: 'endpoint' });
      const output = JSON.stringify({ __type: sqsError.type, message: sqsError.message });
      if (res.headersSent) return;
      res.writeHead(sqsError.status, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-query-error': `${sqsError.queryCode};Sender`,
        'content-length': Buffer.byteLength(output),
      });
      res.end(output);
    });
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => ready());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  queueUrl = `${endpoint}/${ACCOUNT_ID}/${queueName}`;

  return {
    endpoint,
    queueUrl,
    queueArn,
    dlq: () => deadLetters.map((letter) => ({ ...letter })),
    depth: () => messages.size,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        notifyIfIdle();
      }),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      while (inFlight) await new Promise((wake) => setTimeout(wake, 10));
      // Nothing will consume what is left; release anyone waiting for it.
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const wake of waiters) wake();
    },
  };
}
