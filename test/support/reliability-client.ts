import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { type LocalService, type LocalServiceOptions, startLocalService } from '../../local/service';
import type { NewKeyInput } from '../../shared/domain/keys/key-lifecycle';
import { SCOPES } from '../../shared/domain/keys/scopes';
import { apiKeyService } from '../../shared/services/auth/api-keys';
import { dynamodbEndpoint } from './dynamodb';
import { isContractError, jsonCall, type RawAnswer } from './fuzz-http';

/**
 * Client-side helpers of the reliability suites: a client that retries what the contract says is
 * retryable (429 and 503, with the same Idempotency-Key), pollers, and a test-only census of the
 * sessions table to count sessions directly (nothing lost, nothing duplicated, nothing left open).
 */
export const TERMINAL = new Set(['completed', 'failed', 'canceled']);

export interface CallRecord {
  method: string;
  path: string;
  status: number;
  sentAt: number;
  doneAt: number;
  /** For error answers: whether the body had the contract's error shape. */
  contractError?: boolean;
}

export class ReliableClient {
  readonly log: CallRecord[] = [];

  constructor(
    private readonly baseUrl: () => string,
    private readonly options: { retries?: number; backoffMs?: number } = {},
  ) {}

  /** One attempt, recorded. */
  async once(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<RawAnswer> {
    const sentAt = Date.now();
    const answer = await jsonCall(this.baseUrl(), method, path, options);
    this.log.push({
      method,
      path,
      status: answer.status,
      sentAt,
      doneAt: Date.now(),
      ...(answer.status >= 400 ? { contractError: isContractError(answer.json) } : {}),
    });
    return answer;
  }

  /** Retries 429 and 503 (and connection errors) with backoff, as the contract tells clients to. */
  async call(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<RawAnswer> {
    const retries = this.options.retries ?? 8;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.once(method, path, options).catch((error: Error) => {
        if (attempt >= retries) throw error;
        return undefined;
      });
      if (answer && ![429, 503].includes(answer.status)) return answer;
      if (answer && attempt >= retries) return answer;
      const retryAfter = Number(answer?.headers['retry-after'] ?? 0) * 1000;
      const backoff = (this.options.backoffMs ?? 100) * 2 ** Math.min(attempt, 5);
      await new Promise((wake) => setTimeout(wake, Math.max(retryAfter, backoff * (0.5 + Math.random()))));
    }
  }

  /** Polls a session until it ends; returns the last poll answer. */
  async pollUntilTerminal(key: string, sessionId: string, timeoutMs = 60_000, intervalMs = 150) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await this.call('GET', `/api/v1/public/sessions/${sessionId}`, { key });
      if (answer.status !== 200)
        throw new Error(`poll of ${sessionId} answered ${answer.status}: ${answer.text}`);
      if (TERMINAL.has(answer.json.session.status)) return answer;
      if (Date.now() > deadline) {
        throw new Error(`session ${sessionId} still ${answer.json.session.status} after ${timeoutMs} ms`);
      }
      await new Promise((wake) => setTimeout(wake, intervalMs));
    }
  }

  /** Error answers that were not in the contract's error shape. */
  malformedErrors(): CallRecord[] {
    return this.log.filter((r) => r.contractError === false);
  }

  statusCounts(): Record<number, number> {
    const counts: Record<number, number> = {};
    for (const record of this.log) counts[record.status] = (counts[record.status] ?? 0) + 1;
    return counts;
  }
}

export interface SessionCensus {
  /** Every session META item, by session ID. */
  sessions: Map<string, { status: string; owner: string; runId: string }>;
  /** History entries per session (an item holds the entries one write committed). */
  historyItems: Map<string, number>;
}

/** Reads the whole sessions table of a runtime (a test-only Scan of DynamoDB Local). */
export async function sessionCensus(env: Record<string, string | undefined>): Promise<SessionCensus> {
  const client = new DynamoDBClient({
    endpoint: env.SIS_DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const doc = DynamoDBDocumentClient.from(client);
  const census: SessionCensus = { sessions: new Map(), historyItems: new Map() };
  try {
    for await (const page of paginateScan(
      { client: doc },
      { TableName: env.SIS_SESSIONS_TABLE, ConsistentRead: true },
    )) {
      for (const item of page.Items ?? []) {
        const pk = String(item.pk);
        if (!pk.startsWith('SESSION#')) continue;
        const id = pk.slice('SESSION#'.length);
        if (item.sk === 'META') {
          census.sessions.set(id, {
            status: String(item.status),
            owner: String(item.owner_key_id),
            runId: String(item.run_id),
          });
        } else if (String(item.sk).startsWith('H#')) {
          const entries = typeof item.n === 'number' ? item.n : 1;
          census.historyItems.set(id, (census.historyItems.get(id) ?? 0) + entries);
        }
      }
    }
    return census;
  } finally {
    client.destroy();
  }
}

/** Status transitions recorded in a poll answer's events, in order. */
export function statusTrail(poll: RawAnswer): string[] {
  return (poll.json.events as { type: string; detail: { status?: string } }[])
    .filter((e) => e.type === 'status_changed')
    .map((e) => e.detail.status ?? '?');
}

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export interface ReliabilityService extends LocalService {
  adminKey: string;
  createKey(input?: Partial<NewKeyInput>): Promise<{ keyId: string; apiKey: string }>;
}

/**
 * The whole local runtime for a reliability suite, on its own tables (the run's shared DynamoDB
 * Local unless `dynamodb` names another), with the options startTestService does not pass through
 * (a short queue visibility timeout, a fixed table prefix for restarts).
 */
export async function startReliabilityService(
  options: Partial<LocalServiceOptions> & {
    env?: Record<string, string>;
    /** Reuse this admin key (a restart on the same tables) instead of creating one. */
    adminKey?: string;
  } = {},
): Promise<ReliabilityService> {
  const service = await startLocalService({
    port: 0,
    dynamodb: options.dynamodb ?? { endpoint: dynamodbEndpoint() },
    tablePrefix: options.tablePrefix ?? `sis-t${randomBytes(5).toString('hex')}`,
    ...(options.incidentQueue ? { incidentQueue: options.incidentQueue } : {}),
    demoData: false,
    env: { SIS_DEMO_DATA: '0', ...options.env },
  });
  const createKey = async (input: Partial<NewKeyInput> = {}) => {
    const issued = await apiKeyService().create(
      { name: 'reliability key', scopes: [...SCOPES], ...input },
      'reliability-suite',
    );
    return { keyId: issued.summary.key_id, apiKey: issued.apiKey };
  };
  const adminKey =
    options.adminKey ?? (await createKey({ name: 'reliability admin', role: 'admin', scopes: [] })).apiKey;
  return { ...service, adminKey, createKey };
}
