import { setTimeout as pause } from 'node:timers/promises';
import {
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Config } from '../config';
import { ServiceUnavailableError } from '../domain/core/errors';
import type { IncidentOrigin, NormalisedIncident } from '../domain/incidents/incident';

/**
 * The incident queue (SQS): the push endpoint and the pull connectors send normalised incidents,
 * the sync consumer stores them. Locally SIS_SQS_ENDPOINT points the same client at the in-process
 * queue of the local runtime (local/sqs.ts), which speaks the SQS JSON protocol.
 *
 * Message body: `{"v":1,"incident":<NormalisedIncident>,"origin":<IncidentOrigin>}` (who sent it: a
 * key's push, a pull, the demo data). The consumer validates it again: a queue is a trust boundary
 * too, and a malformed message must end in the DLQ, not in the table.
 */
export const INCIDENT_MESSAGE_VERSION = 1;

export interface IncidentMessage {
  v: typeof INCIDENT_MESSAGE_VERSION;
  incident: Omit<NormalisedIncident, 'origin'>;
  origin?: IncidentOrigin;
}

export interface IncidentQueue {
  /** Sends every incident or throws; a partial failure is retried, then reported as unavailable. */
  enqueue(incidents: readonly NormalisedIncident[]): Promise<void>;
}

/** SQS limits: 10 entries and 256 KiB of payload per SendMessageBatch. */
const MAX_ENTRIES_PER_BATCH = 10;
const MAX_BATCH_BYTES = 256 * 1024 - 4 * 1024;
const MAX_SEND_ATTEMPTS = 4;

export function encodeIncidentMessage(incident: NormalisedIncident): string {
  const { origin, ...rest } = incident;
  const message: IncidentMessage = {
    v: INCIDENT_MESSAGE_VERSION,
    incident: rest,
    ...(origin ? { origin } : {}),
  };
  return JSON.stringify(message);
}

/** Groups message bodies into batches that respect both SendMessageBatch limits. */
export function batchesOf(bodies: readonly string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = Buffer.byteLength(body, 'utf8');
    if (size > MAX_BATCH_BYTES) throw new Error('An incident message exceeds the SQS message size limit.');
    if (current.length === MAX_ENTRIES_PER_BATCH || bytes + size > MAX_BATCH_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(body);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export class SqsIncidentQueue implements IncidentQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(incidents: readonly NormalisedIncident[]): Promise<void> {
    for (const batch of batchesOf(incidents.map(encodeIncidentMessage))) {
      let entries: SendMessageBatchRequestEntry[] = batch.map((body, i) => ({
        Id: `m${i}`,
        MessageBody: body,
      }));
      for (let attempt = 1; entries.length > 0; attempt++) {
        const result = await this.sqs.send(
          new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }),
        );
        const failed = new Set((result.Failed ?? []).map((f) => f.Id));
        entries = entries.filter((entry) => failed.has(entry.Id));
        if (entries.length > 0) {
          if (attempt >= MAX_SEND_ATTEMPTS) {
            throw new ServiceUnavailableError('The incident queue is not accepting messages. Retry shortly.');
          }
          await pause(50 * 2 ** attempt);
        }
      }
    }
  }
}

export function createSqsClient(cfg: Config): SQSClient {
  const local = cfg.SIS_SQS_ENDPOINT;
  return new SQSClient({
    region: cfg.AWS_REGION,
    maxAttempts: 4,
    // The local queue accepts any credentials, and an operator's machine may have none.
    ...(local ? { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}

export function incidentQueueFromConfig(cfg: Config): IncidentQueue {
  if (!cfg.SIS_INCIDENT_QUEUE_URL) {
    throw new Error('SIS_INCIDENT_QUEUE_URL is not set: this function cannot enqueue incidents.');
  }
  return new SqsIncidentQueue(createSqsClient(cfg), cfg.SIS_INCIDENT_QUEUE_URL);
}

/**
 * A later look at an incident whose entities are being investigated as it arrived
 * (shared/services/incidents/auto-investigation.ts): `{"v":1,"follow_up":{"incident_id","round"}}`
 * on the same queue, delayed (SQS DelaySeconds, at most 900 s), so a deferred entity is started and
 * the ended sessions are noticed without anything always on.
 */
export interface FollowUpMessage {
  v: typeof INCIDENT_MESSAGE_VERSION;
  follow_up: { incident_id: string; round: number };
}

export interface IncidentFollowUps {
  schedule(incidentId: string, round: number, delaySeconds: number): Promise<void>;
}

export function incidentFollowUpsFromConfig(cfg: Config): IncidentFollowUps {
  const queueUrl = cfg.SIS_INCIDENT_QUEUE_URL;
  if (!queueUrl)
    throw new Error('SIS_INCIDENT_QUEUE_URL is not set: this function cannot schedule follow-ups.');
  const sqs = createSqsClient(cfg);
  return {
    async schedule(incidentId, round, delaySeconds) {
      const message: FollowUpMessage = {
        v: INCIDENT_MESSAGE_VERSION,
        follow_up: { incident_id: incidentId, round },
      };
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(message),
          DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
        }),
      );
    },
  };
}
