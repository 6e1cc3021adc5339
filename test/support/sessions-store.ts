import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Report, ToolCall } from '../../shared/domain/core/vocabulary';
import { HistoryRepository } from '../../shared/store/sessions/history-repository';
import { IdempotencyRepository } from '../../shared/store/sessions/idempotency-repository';
import { OpenSessionsRepository } from '../../shared/store/sessions/open-sessions-repository';
import type { HistoryEntry, SessionRecord } from '../../shared/store/sessions/records';
import { SessionsRepository } from '../../shared/store/sessions/session-repository';
import { ToolResultsRepository } from '../../shared/store/sessions/tool-results-repository';
import { createIsolatedTables } from './dynamodb';

/**
 * The sessions table's repositories (shared/store/sessions/) on tables of their own in DynamoDB
 * Local, over one document client that counts every request they send (independently of what they
 * report about themselves), and a plain client for reading and planting items behind their back.
 */
export interface SessionsStore {
  repo: SessionsRepository;
  historyRepo: HistoryRepository;
  toolResults: ToolResultsRepository;
  openSessions: OpenSessionsRepository;
  idempotency: IdempotencyRepository;
  raw: DynamoDBDocumentClient;
  table: string;
  /** Command names of the requests sent, in order (empty it with `requests.length = 0`). */
  requests: string[];
  /** Whether each request read consistently. */
  consistent: boolean[];
  /** Runs `landing` once after the repositories' next Query has been answered (what lands between two reads). */
  onNextQuery: (landing: () => Promise<void>) => void;
}

export async function sessionsStore(): Promise<SessionsStore> {
  const tables = await createIsolatedTables();
  const doc = DynamoDBDocumentClient.from(tables.client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  const requests: string[] = [];
  const consistent: boolean[] = [];
  let afterNextQuery: (() => Promise<void>) | undefined;
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      requests.push(String(context.commandName));
      consistent.push((args.input as { ConsistentRead?: boolean }).ConsistentRead === true);
      const output = await next(args);
      const landing = context.commandName === 'QueryCommand' ? afterNextQuery : undefined;
      if (landing) {
        afterNextQuery = undefined;
        await landing();
      }
      return output;
    },
    { step: 'initialize', name: 'countRequests' },
  );
  const table = tables.names.sessions;
  return {
    repo: new SessionsRepository(doc, table),
    historyRepo: new HistoryRepository(doc, table),
    toolResults: new ToolResultsRepository(doc, table),
    openSessions: new OpenSessionsRepository(doc, table),
    idempotency: new IdempotencyRepository(doc, table),
    // Same marshalling options: a document client sets them on the client it wraps.
    raw: DynamoDBDocumentClient.from(tables.client, { marshallOptions: { removeUndefinedValues: true } }),
    table,
    requests,
    consistent,
    onNextQuery: (landing) => {
      afterNextQuery = landing;
    },
  };
}

export function newSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
  const now = new Date().toISOString();
  return {
    session_id: `s_${randomUUID().replaceAll('-', '')}`,
    run_id: `r_${randomUUID().replaceAll('-', '')}`,
    owner_key_id: 'aaaaaaaaaaaaaaaa',
    entity: { type: 'ip', value: '203.0.113.7' },
    persona: 'SOC Analyst',
    status: 'initialized',
    created_at: now,
    updated_at: now,
    options: { background: true, include_tool_calls: false, include_raw_results: false },
    ...overrides,
  };
}

export const event = (type: string): HistoryEntry => ({
  kind: 'event',
  at: new Date().toISOString(),
  body: { type },
});

// Fixtures are partial: the store keeps and returns what it is given, whatever its shape.
export const asReport = (fields: Record<string, unknown>) => fields as unknown as Report;
export const asCall = (fields: Record<string, unknown>) => fields as unknown as ToolCall;
export const asEventBody = (fields: { type: string; [key: string]: unknown }) => fields;
export const body = (entry: HistoryEntry) => entry.body as unknown as Record<string, unknown>;
