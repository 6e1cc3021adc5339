import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report, ToolCall } from '../../shared/domain/core/vocabulary';
import { HistoryRepository } from '../../shared/store/sessions/history-repository';
import { IdempotencyRepository } from '../../shared/store/sessions/idempotency-repository';
import { OpenSessionsRepository } from '../../shared/store/sessions/open-sessions-repository';
import type { HistoryEntry, SessionRecord } from '../../shared/store/sessions/records';
import { REPORT_DICTIONARY_V1 } from '../../shared/store/sessions/report-packing';
import { SessionsRepository } from '../../shared/store/sessions/session-repository';
import { ToolResultsRepository } from '../../shared/store/sessions/tool-results-repository';
import { createIsolatedTables } from '../support/dynamodb';

/** The sessions store against DynamoDB Local: lifecycle conditions, history order, the poll's cost. */
let repo: SessionsRepository;
let historyRepo: HistoryRepository;
let toolResults: ToolResultsRepository;
let openSessions: OpenSessionsRepository;
let idempotency: IdempotencyRepository;
let raw: DynamoDBDocumentClient;
let table: string;
let requests: string[] = [];
let consistent: boolean[] = [];
/** Runs once after the repository's next Query has been answered (what lands between two reads). */
let afterNextQuery: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const tables = await createIsolatedTables();
  const doc = DynamoDBDocumentClient.from(tables.client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  // Counts every request the repository sends, independently of what it reports about itself.
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
  repo = new SessionsRepository(doc, tables.names.sessions);
  historyRepo = new HistoryRepository(doc, tables.names.sessions);
  toolResults = new ToolResultsRepository(doc, tables.names.sessions);
  openSessions = new OpenSessionsRepository(doc, tables.names.sessions);
  idempotency = new IdempotencyRepository(doc, tables.names.sessions);
  // Same marshalling options: a document client sets them on the client it wraps.
  raw = DynamoDBDocumentClient.from(tables.client, { marshallOptions: { removeUndefinedValues: true } });
  table = tables.names.sessions;
});

function newSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
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

const event = (type: string): HistoryEntry => ({
  kind: 'event',
  at: new Date().toISOString(),
  body: { type },
});

// Fixtures are partial: the store keeps and returns what it is given, whatever its shape.
const asReport = (fields: Record<string, unknown>) => fields as unknown as Report;
const asCall = (fields: Record<string, unknown>) => fields as unknown as ToolCall;
const asEventBody = (fields: { type: string; [key: string]: unknown }) => fields;
const body = (entry: HistoryEntry) => entry.body as unknown as Record<string, unknown>;

describe('sessions repository', () => {
  it('creates a session and reads it back; a second create with the same ID is refused', async () => {
    const session = newSession();
    await repo.create(session, []);
    expect(await repo.get(session.session_id)).toEqual(session);
    await expect(repo.create(session, [])).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await repo.get('s_does_not_exist')).toBeUndefined();
  });

  it('moves initialized → active → completed and never out of a terminal status', async () => {
    const session = newSession();
    await repo.create(session, []);
    expect((await repo.transition(session.session_id, 'completed')).ok).toBe(false);
    const active = await repo.transition(session.session_id, 'active', {}, [event('status_changed')]);
    expect(active).toMatchObject({ ok: true, session: { status: 'active' } });
    const done = await repo.transition(session.session_id, 'completed', {
      report: asReport({ verdict: 'benign' }),
    });
    expect(done).toMatchObject({
      ok: true,
      session: { status: 'completed', report: asReport({ verdict: 'benign' }) },
    });
    for (const to of ['failed', 'canceled', 'active', 'completed'] as const) {
      const refused = await repo.transition(session.session_id, to, { failure_reason: 'late' }, [
        event('late'),
      ]);
      expect(refused).toMatchObject({ ok: false, session: { status: 'completed' } });
    }
    // The refused transitions wrote no history either.
    const page = await historyRepo.readPage(session.session_id, undefined, 50);
    expect(page.history.map((h) => body(h).type)).toEqual(['status_changed']);
    expect(page.session?.failure_reason).toBeUndefined();
    expect((await repo.transition('s_missing_session', 'active')).ok).toBe(false);
  });

  it('lists open sessions from the sparse index and drops them once terminal', async () => {
    const open = newSession();
    const ended = newSession();
    await repo.create(open, []);
    await repo.create(ended, []);
    await repo.transition(ended.session_id, 'failed', { failure_reason: 'x' });
    const ids = (await openSessions.list()).map((s) => s.session_id);
    expect(ids).toContain(open.session_id);
    expect(ids).not.toContain(ended.session_id);
  });

  it('gives concurrent appends gap-free, unique sequence numbers', async () => {
    const session = newSession();
    await repo.create(session, []);
    const writers = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? historyRepo.append(session.session_id, [event(`w${i}a`), event(`w${i}b`)])
        : historyRepo.append(session.session_id, [event(`w${i}`)]),
    );
    const seqs = (await Promise.all(writers)).flat().sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    const page = await historyRepo.readPage(session.session_id, undefined, 100);
    expect(page.history.map((h) => h.seq)).toEqual(seqs);
    // A multi-entry append keeps its entries adjacent and in order.
    const a = page.history.findIndex((h) => body(h).type === 'w0a');
    expect(page.history[a + 1] && body(page.history[a + 1]!).type).toBe('w0b');
  });

  it('packs one write into one item and reads items of the older one-entry layout alike', async () => {
    const session = newSession();
    await repo.create(session, [event('created'), event('initialized')]);
    // Written before packing: one entry per item, no count.
    await raw.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `SESSION#${session.session_id}`,
          sk: 'H#000003',
          kind: 'event',
          at: 'x',
          body: { type: 'old' },
        },
      }),
    );
    expect(await historyRepo.append(session.session_id, [event('a'), event('b'), event('c')])).toEqual([
      4, 5, 6,
    ]);
    const page = await historyRepo.readPage(session.session_id, undefined, 50);
    expect(page.history.map((h) => [h.seq, body(h).type])).toEqual([
      [1, 'created'],
      [2, 'initialized'],
      [3, 'old'],
      [4, 'a'],
      [5, 'b'],
      [6, 'c'],
    ]);
    // Three items of history: two writes and the older one.
    const { Items } = await raw.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :h)',
        ExpressionAttributeValues: { ':pk': `SESSION#${session.session_id}`, ':h': 'H#' },
      }),
    );
    expect(Items?.map((item) => item.sk)).toEqual(['H#000001', 'H#000003', 'H#000004']);
    expect((await historyRepo.readPage(session.session_id, 3, 50)).history.map((h) => h.seq)).toEqual([
      4, 5, 6,
    ]);
  });

  it('reads a poll page (new history + session) in ONE request, and two only when the page is cut', async () => {
    const session = newSession();
    await repo.create(session, []);
    // Six writes: one entry each, then one of three entries (one item).
    for (let i = 0; i < 5; i++) await historyRepo.append(session.session_id, [event(`e${i}`)]);
    await historyRepo.append(session.session_id, [event('e5'), event('e6'), event('e7')]);

    requests = [];
    consistent = [];
    const all = await historyRepo.readPage(session.session_id, undefined, 50);
    expect(requests).toEqual(['QueryCommand']);
    // Eventually consistent: half the read units of a consistent read.
    expect(consistent).toEqual([false]);
    expect(all).toMatchObject({ requests: 1, truncated: false, session: { session_id: session.session_id } });
    expect(all.history.map((h) => h.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(all.consumedReadUnits).toBeGreaterThan(0);

    requests = [];
    const after = await historyRepo.readPage(session.session_id, 4, 50);
    expect(requests).toEqual(['QueryCommand']);
    expect(after.history.map((h) => [h.seq, body(h).type])).toEqual([
      [5, 'e4'],
      [6, 'e5'],
      [7, 'e6'],
      [8, 'e7'],
    ]);
    expect(after.session?.status).toBe('initialized');

    requests = [];
    const nothingNew = await historyRepo.readPage(session.session_id, 8, 50);
    expect(requests).toEqual(['QueryCommand']);
    expect(nothingNew.history).toEqual([]);
    expect(nothingNew.session?.session_id).toBe(session.session_id);

    requests = [];
    const cut = await historyRepo.readPage(session.session_id, undefined, 3);
    expect(requests).toEqual(['QueryCommand', 'GetItemCommand']);
    expect(cut).toMatchObject({ requests: 2, truncated: true, session: { session_id: session.session_id } });
    // The limit counts stored items (4 read), each returned whole.
    expect(cut.history.map((h) => h.seq)).toEqual([1, 2, 3, 4]);
    requests = [];
    const rest = await historyRepo.readPage(session.session_id, 4, 2);
    expect(rest.history.map((h) => h.seq)).toEqual([5, 6, 7, 8]);
    expect(rest.truncated).toBe(false);

    // No session on the replica asked: only a consistent read can tell an unknown session from one
    // created a moment ago.
    requests = [];
    consistent = [];
    const unknown = await historyRepo.readPage('s_unknown_session', undefined, 50);
    expect(requests).toEqual(['QueryCommand', 'QueryCommand']);
    expect(consistent).toEqual([false, true]);
    expect(unknown.session).toBeUndefined();
  });

  it('keeps the report out of the poll: get reads it, the poll page carries only its verdict and score', async () => {
    const session = newSession();
    await repo.create(session, [event('created')]);
    await repo.transition(session.session_id, 'active');
    const report = asReport({ verdict: 'suspicious', risk_score: 61, summary: 'x'.repeat(3000) });
    const done = await repo.transition(session.session_id, 'completed', { report }, [event('done')]);
    expect(done.ok && done.session.report).toEqual(report);
    expect((await repo.get(session.session_id))?.report).toEqual(report);
    const page = await historyRepo.readPage(session.session_id, undefined, 50);
    expect(page.session?.report).toBeUndefined();
    expect(page.session?.report_summary).toEqual({ verdict: 'suspicious', risk_score: 61 });
    expect(page.history.map((h) => body(h).type)).toEqual(['created', 'done']);
    // The 3 KB report is not read by the poll: the page costs what a page without it costs.
    expect(page.consumedReadUnits).toBeLessThanOrEqual(0.5);
  });

  it('packs a report under 1 KB with the report dictionary, and still reads reports packed without it', async () => {
    // A rules-engine report as the workflow writes it (2.7 KB of JSON; 1.1 KB deflated without a
    // dictionary, so its item took two write units, four in the completing transaction).
    const report = asReport(JSON.parse(REPORT_FIXTURE));
    const session = newSession();
    await repo.create(session, [event('created')]);
    await repo.transition(session.session_id, 'active');
    await repo.transition(session.session_id, 'completed', { report }, [event('done')]);
    const { Item } = await raw.send(
      new GetCommand({ TableName: table, Key: { pk: `SESSION#${session.session_id}`, sk: 'META#REPORT' } }),
    );
    expect(Object.keys(Item ?? {}).sort()).toEqual(['pk', 'report_zd1', 'sk']);
    // DynamoDB's item size: attribute names plus values.
    const size = Object.entries(Item ?? {}).reduce(
      (sum, [name, value]) =>
        sum + name.length + (value instanceof Uint8Array ? value.length : Buffer.byteLength(String(value))),
      0,
    );
    expect(size).toBeLessThan(1024);
    expect((await repo.get(session.session_id))?.report).toEqual(report);

    // A report stored before the dictionary (plain deflate) reads the same.
    const older = newSession({ status: 'completed' });
    await repo.create(older, []);
    await raw.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `SESSION#${older.session_id}`,
          sk: 'META#REPORT',
          report_z: deflateRawSync(JSON.stringify(report)),
        },
      }),
    );
    expect((await repo.get(older.session_id))?.report).toEqual(report);

    // Stored reports name this dictionary: its text must never change (add a new version instead).
    expect(createHash('sha256').update(REPORT_DICTIONARY_V1).digest('hex')).toBe(
      'fe182683c400d99d08cbc34dc7875bb188b885cc1a6fd4b3ed2eb69bf0fa7e64',
    );
  });

  it('records a tool result once, with its history, only while the session is active', async () => {
    const session = newSession();
    await repo.create(session, [event('session_created')]);
    const result = { tool: 'ip_classification', call: asCall({ status: 'succeeded' }), raw: { a: 1 } };
    expect(await toolResults.record(session.session_id, result, [event('tool_succeeded')])).toBe(
      'not_active',
    );
    await repo.transition(session.session_id, 'active');
    expect(await toolResults.record(session.session_id, result, [event('tool_succeeded')])).toBe('recorded');
    expect(await toolResults.record(session.session_id, result, [event('tool_succeeded')])).toBe('duplicate');
    const page = await historyRepo.readPage(session.session_id, undefined, 50);
    // Tool results are not history: the poll's key range skips them.
    expect(page.history.map((h) => [h.seq, body(h).type])).toEqual([
      [1, 'session_created'],
      [2, 'tool_succeeded'],
    ]);
    expect(await toolResults.list(session.session_id)).toEqual([result]);
    expect(await toolResults.get(session.session_id, 'ip_classification')).toEqual(result);
  });

  it('keeps a deferred tool result out of the history until a terminal transition publishes it', async () => {
    const session = newSession();
    await repo.create(session, [event('session_created')]);
    await repo.transition(session.session_id, 'active', {}, [event('status_changed')]);
    const at = (ms: number) => new Date(Date.parse(session.created_at) + ms).toISOString();
    const toolHistory = (tool: string, ms: number): HistoryEntry[] => [
      { kind: 'event', at: at(ms), body: asEventBody({ type: 'tool_started', tool }) },
      {
        kind: 'tool_call',
        at: at(ms),
        body: asCall({ name: tool, output: { findings: ['x'.repeat(600)] } }),
      },
      { kind: 'event', at: at(ms + 5), body: asEventBody({ type: 'tool_succeeded', tool }) },
    ];
    const result = (tool: string) => ({ tool, call: asCall({ name: tool, status: 'succeeded' }) });
    // Recorded in the opposite order of their starts: the history follows the starts.
    expect(
      await toolResults.recordDeferred(session.session_id, result('whois'), toolHistory('whois', 20)),
    ).toBe('recorded');
    expect(
      await toolResults.recordDeferred(
        session.session_id,
        result('ip_classification'),
        toolHistory('ip_classification', 10),
      ),
    ).toBe('recorded');
    requests = [];
    expect(
      await toolResults.recordDeferred(session.session_id, result('whois'), toolHistory('whois', 30)),
    ).toBe('duplicate');
    // One conditional put, no transaction and no read of the history's last slot.
    expect(requests).toEqual(['PutItemCommand']);

    expect(
      (await historyRepo.readPage(session.session_id, undefined, 50)).history.map((h) => body(h).type),
    ).toEqual(['session_created', 'status_changed']);
    expect(await toolResults.get(session.session_id, 'whois')).toEqual(result('whois'));
    expect(await toolResults.list(session.session_id)).toEqual([
      result('ip_classification'),
      result('whois'),
    ]);

    const done = await repo.transition(
      session.session_id,
      'completed',
      { report: asReport({ verdict: 'benign' }) },
      [event('status_changed')],
    );
    expect(done.ok).toBe(true);
    const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
    expect(history.map((h) => [h.seq, h.kind, body(h).type ?? body(h).name])).toEqual([
      [1, 'event', 'session_created'],
      [2, 'event', 'status_changed'],
      [3, 'event', 'tool_started'],
      [4, 'tool_call', 'ip_classification'],
      [5, 'event', 'tool_succeeded'],
      [6, 'event', 'tool_started'],
      [7, 'tool_call', 'whois'],
      [8, 'event', 'tool_succeeded'],
      [9, 'event', 'status_changed'],
    ]);
    expect(history[6]?.body).toEqual(toolHistory('whois', 20)[1]?.body);
    // The first write of the same tool is the one kept, in the results and in the history.
    expect(history[5]?.at).toBe(at(20));
    // A result recorded after the end is never published.
    await toolResults.recordDeferred(session.session_id, result('late'), toolHistory('late', 40));
    expect((await historyRepo.readPage(session.session_id, undefined, 50)).history).toHaveLength(9);
  });

  it('publishes deferred tool results with every terminal outcome, and not with a refused one', async () => {
    for (const outcome of ['failed', 'canceled'] as const) {
      const session = newSession();
      await repo.create(session, []);
      await repo.transition(session.session_id, 'active');
      await toolResults.recordDeferred(
        session.session_id,
        { tool: 'whois', call: asCall({ name: 'whois' }) },
        [{ kind: 'tool_call', at: new Date().toISOString(), body: asCall({ name: 'whois' }) }],
      );
      expect((await repo.transition(session.session_id, outcome, {}, [event(outcome)])).ok).toBe(true);
      const refused = await repo.transition(session.session_id, 'completed', {}, [event('late')]);
      expect(refused.ok).toBe(false);
      const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
      expect(history.map((h) => body(h).type ?? body(h).name)).toEqual(['whois', outcome]);
    }
  });

  it('publishes deferred tool calls of hundreds of KB each: one item per tool keeps each under 400 KB', async () => {
    const session = newSession();
    await repo.create(session, []);
    await repo.transition(session.session_id, 'active');
    const tools = ['ip_classification', 'whois', 'incident_history'];
    const started = Date.parse(session.created_at);
    for (const [i, tool] of tools.entries()) {
      // About 250 KB that deflate cannot shrink much: the three together exceed DynamoDB's 400 KB item.
      const evidence = randomBytes(187_500).toString('base64');
      await toolResults.recordDeferred(session.session_id, { tool, call: asCall({ name: tool }) }, [
        {
          kind: 'tool_call',
          at: new Date(started + i).toISOString(),
          body: asCall({ name: tool, evidence }),
        },
      ]);
    }
    const ended = await repo.transition(session.session_id, 'failed', {}, [event('status_changed')]);
    expect(ended.ok).toBe(true);
    const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
    expect(history.map((h) => [h.seq, body(h).type ?? body(h).name])).toEqual([
      [1, 'ip_classification'],
      [2, 'whois'],
      [3, 'incident_history'],
      [4, 'status_changed'],
    ]);
  });

  it('reads the page again when it sees only part of a transaction (a gap, or META before its history)', async () => {
    // A terminal move writes one history item per deferred tool and one of its own in ONE transaction,
    // but a Query is only read-committed against a transaction: it may see some of those items and
    // not (yet) others. A page with a later item and without an earlier one would move the cursor
    // past the missing entries for good.
    const session = newSession();
    await repo.create(session, [event('session_created')]);
    await repo.transition(session.session_id, 'active', {}, [event('status_changed')]);
    const item = (first: number, types: string[]) => ({
      pk: `SESSION#${session.session_id}`,
      sk: `H#${String(first).padStart(6, '0')}`,
      n: types.length,
      entries: types.map((type) => ({ kind: 'event', at: new Date().toISOString(), body: { type } })),
    });
    // Of the transaction's items H#000003 (a tool's two entries) and H#000005 (the end's), only the
    // second is visible to the first read; the first lands right after it.
    await raw.send(new PutCommand({ TableName: table, Item: item(5, ['status_changed']) }));
    afterNextQuery = async () => {
      await raw.send(new PutCommand({ TableName: table, Item: item(3, ['tool_started', 'tool_succeeded']) }));
    };
    for (const after of [2, undefined]) {
      const page = await historyRepo.readPage(session.session_id, after, 50);
      expect(page.history.map((h) => h.seq)).toEqual(after === 2 ? [3, 4, 5] : [1, 2, 3, 4, 5]);
    }

    // Or the ending's META without any of its history items: a client seeing the final status
    // would stop polling without the tool calls and the closing entries.
    const ending = newSession();
    await repo.create(ending, [event('session_created')]);
    await repo.transition(ending.session_id, 'active', {}, [event('status_changed')]);
    await toolResults.recordDeferred(ending.session_id, { tool: 'whois', call: asCall({ name: 'whois' }) }, [
      { kind: 'tool_call', at: new Date().toISOString(), body: asCall({ name: 'whois' }) },
    ]);
    await repo.transition(ending.session_id, 'completed', { report: asReport({ verdict: 'benign' }) }, [
      event('status_changed'),
    ]);
    const written = await raw.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND sk > :h',
        ExpressionAttributeValues: { ':pk': `SESSION#${ending.session_id}`, ':h': 'H#000002' },
        ConsistentRead: true,
      }),
    );
    const endingItems = (written.Items ?? []).filter((i) => String(i.sk).startsWith('H#'));
    expect(endingItems.map((i) => i.sk)).toEqual(['H#000003', 'H#000004']);
    for (const i of endingItems) {
      await raw.send(new DeleteCommand({ TableName: table, Key: { pk: i.pk, sk: i.sk } }));
    }
    afterNextQuery = async () => {
      for (const i of endingItems) await raw.send(new PutCommand({ TableName: table, Item: i }));
    };
    const ended = await historyRepo.readPage(ending.session_id, 2, 50);
    expect(ended.session?.status).toBe('completed');
    expect(ended.session).not.toHaveProperty('history_seq');
    expect(ended.history.map((h) => [h.seq, body(h).type ?? body(h).name])).toEqual([
      [3, 'whois'],
      [4, 'status_changed'],
    ]);

    // A gap that stays (history written before the slots were checked, or a cursor inside an item)
    // is returned as it is after a bounded number of reads: a poll never spins on it.
    const gapped = newSession();
    await repo.create(gapped, [event('session_created')]);
    await raw.send(
      new PutCommand({
        TableName: table,
        Item: { ...item(3, ['late']), pk: `SESSION#${gapped.session_id}` },
      }),
    );
    requests = [];
    const page = await historyRepo.readPage(gapped.session_id, undefined, 50);
    expect(page.history.map((h) => h.seq)).toEqual([1, 3]);
    expect(requests.length).toBeLessThanOrEqual(3);
    expect(page.requests).toBe(requests.length);
  });

  it('publishes deferred tool calls gap-free and adjacent while other writers append', async () => {
    const session = newSession();
    await repo.create(session, [event('session_created')]);
    await repo.transition(session.session_id, 'active');
    const at = new Date().toISOString();
    for (const tool of ['ip_classification', 'whois']) {
      await toolResults.recordDeferred(session.session_id, { tool, call: asCall({ name: tool }) }, [
        { kind: 'event', at, body: asEventBody({ type: 'tool_started', tool }) },
        { kind: 'tool_call', at, body: asCall({ name: tool }) },
      ]);
    }
    const [ended] = await Promise.all([
      repo.transition(session.session_id, 'failed', {}, [event('status_changed')]),
      ...Array.from({ length: 6 }, (_, i) => historyRepo.append(session.session_id, [event(`w${i}`)])),
    ]);
    expect(ended.ok).toBe(true);
    const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
    expect(history.map((h) => h.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const first = history.findIndex((h) => body(h).type === 'tool_started');
    expect(history.slice(first, first + 5).map((h) => body(h).type ?? body(h).name)).toEqual([
      'tool_started',
      'ip_classification',
      'tool_started',
      'whois',
      'status_changed',
    ]);
  });
  it('publishes deferred tool calls exactly once when terminal transitions race', async () => {
    for (let round = 0; round < 5; round++) {
      const session = newSession();
      await repo.create(session, []);
      await repo.transition(session.session_id, 'active');
      for (const tool of ['ip_classification', 'whois']) {
        await toolResults.recordDeferred(session.session_id, { tool, call: asCall({ name: tool }) }, [
          { kind: 'tool_call', at: new Date().toISOString(), body: asCall({ name: tool }) },
        ]);
      }
      // Persist and a cancel (or the status-change function) at the same moment: one of them ends it.
      const moves = await Promise.all([
        repo.transition(session.session_id, 'completed', { report: asReport({ verdict: 'benign' }) }, [
          event('completed'),
        ]),
        repo.transition(session.session_id, 'canceled', {}, [event('canceled')]),
        repo.transition(session.session_id, 'failed', {}, [event('failed')]),
      ]);
      const winners = moves.filter((move) => move.ok);
      expect(winners).toHaveLength(1);
      const outcome = winners[0]!.session.status;
      const history = (await historyRepo.readPage(session.session_id, undefined, 50)).history;
      expect(history.map((h) => [h.seq, body(h).type ?? body(h).name])).toEqual([
        [1, 'ip_classification'],
        [2, 'whois'],
        [3, outcome],
      ]);
    }
  });

  it('records an idempotency key with the session and returns the first session on reuse', async () => {
    const first = newSession();
    const idem = {
      owner_key_id: first.owner_key_id,
      idempotency_key: `key-${randomUUID()}`,
      request_hash: 'h1',
      created_at: first.created_at,
      expires_at_epoch: Math.floor(Date.now() / 1000) + 3600,
    };
    expect(await repo.create(first, [], idem)).toEqual({ created: true });
    const second = newSession();
    const again = await repo.create(second, [], idem);
    expect(again).toMatchObject({
      created: false,
      existing: { session_id: first.session_id, request_hash: 'h1' },
    });
    expect(await repo.get(second.session_id)).toBeUndefined();

    // An expired record (TTL deletion lags) counts as absent.
    const stale = { ...idem, idempotency_key: `key-${randomUUID()}`, expires_at_epoch: 1 };
    const old = newSession();
    await repo.create(old, [], stale);
    const fresh = newSession();
    expect(await repo.create(fresh, [], { ...stale, expires_at_epoch: idem.expires_at_epoch })).toEqual({
      created: true,
    });
    expect((await idempotency.get(stale.owner_key_id, stale.idempotency_key))?.session_id).toBe(
      fresh.session_id,
    );
  });
});

/** A session's item with sort key `sk`, read consistently; undefined when there is none. */
async function sessionItem(sessionId: string, sk: string) {
  const { Item } = await raw.send(
    new GetCommand({ TableName: table, Key: { pk: `SESSION#${sessionId}`, sk }, ConsistentRead: true }),
  );
  return Item;
}

/** The open marker (gsi1 entry) of a session; undefined when there is none. */
const openMarker = (sessionId: string) => sessionItem(sessionId, 'OPEN');
const metaItem = (sessionId: string) => sessionItem(sessionId, 'META');

/** Every page of listOpenCreatedBefore, as the sweeper reads them. */
async function allOpenCreatedBefore(cutoff: string, limit: number) {
  const pages: string[][] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await openSessions.listCreatedBefore(cutoff, limit, start);
    expect(page.sessions.length).toBeLessThanOrEqual(limit);
    pages.push(page.sessions.map((s) => s.session_id));
    start = page.next;
  } while (start);
  return pages;
}

/** A marker as a creation writes it first; alone, it is what a creation that crashed right after leaves. */
async function putMarker(sessionId: string, createdAt: string) {
  await raw.send(
    new PutCommand({
      TableName: table,
      Item: {
        pk: `SESSION#${sessionId}`,
        sk: 'OPEN',
        gsi1pk: 'OPEN',
        gsi1sk: `${createdAt}#${sessionId}`,
        session_id: sessionId,
        created_at: createdAt,
      },
    }),
  );
}

describe('open sessions (gsi1, through the open marker)', () => {
  it('keeps the index entry on an open marker, never on META, and deletes it after every terminal move', async () => {
    const report = asReport({ verdict: 'benign', risk_score: 0 });
    const moves: [string, (id: string) => Promise<unknown>][] = [
      ['initialized → failed', (id) => repo.transition(id, 'failed', { failure_reason: 'x' })],
      ['initialized → canceled', (id) => repo.transition(id, 'canceled', {}, [event('canceled')])],
      ['active → completed', (id) => repo.transition(id, 'completed', { report }, [event('completed')])],
      ['active → completed (no history)', (id) => repo.transition(id, 'completed', { report })],
      ['active → failed (timed out)', (id) => repo.transition(id, 'failed', { failure_reason: 'timed out' })],
      ['active → canceled', (id) => repo.transition(id, 'canceled', {}, [event('canceled')])],
    ];
    for (const [name, end] of moves) {
      const session = newSession();
      await repo.create(session, [event('created')]);
      expect(await openMarker(session.session_id), name).toMatchObject({
        gsi1pk: 'OPEN',
        gsi1sk: `${session.created_at}#${session.session_id}`,
      });
      if (name.startsWith('active')) {
        expect((await repo.transition(session.session_id, 'active', {}, [event('active')])).ok).toBe(true);
        expect(await openMarker(session.session_id), name).toBeDefined();
      }
      expect(await metaItem(session.session_id), name).not.toHaveProperty('gsi1pk');
      await end(session.session_id);
      expect((await repo.get(session.session_id))?.status, name).toMatch(/completed|failed|canceled/);
      expect(await openMarker(session.session_id), name).toBeUndefined();
    }
    // A creation with an Idempotency-Key writes its marker in the same transaction.
    const keyed = newSession();
    await repo.create(keyed, [], {
      owner_key_id: keyed.owner_key_id,
      idempotency_key: `key-${randomUUID()}`,
      request_hash: 'h',
      created_at: keyed.created_at,
      expires_at_epoch: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(await openMarker(keyed.session_id)).toMatchObject({ gsi1pk: 'OPEN' });
    expect(await metaItem(keyed.session_id)).not.toHaveProperty('gsi1pk');
  });

  it('lists open sessions oldest first, within the limit and page by page, skipping ended ones', async () => {
    const sessions = Array.from({ length: 5 }, (_, i) =>
      newSession({ created_at: `2001-01-01T00:00:0${i}.000Z` }),
    );
    for (const session of sessions) await repo.create(session, []);
    await repo.transition(sessions[2]!.session_id, 'active');
    await repo.transition(sessions[2]!.session_id, 'completed', { report: asReport({ verdict: 'benign' }) });
    // A marker left by a crashed creation sorts between the first two sessions.
    await putMarker('s_crashed_creation_2001', '2001-01-01T00:00:00.500Z');
    const open = [0, 1, 3, 4].map((i) => sessions[i]!.session_id);

    const pages = await allOpenCreatedBefore('2001-02-01', 2);
    expect(pages.flat()).toEqual(open);
    expect(await allOpenCreatedBefore('2001-01-01T00:00:03', 10)).toEqual([open.slice(0, 2)]);
    const listed = await openSessions.list();
    expect(listed.filter((s) => open.includes(s.session_id)).map((s) => s.session_id)).toEqual(open);
    expect(listed.find((s) => s.session_id === sessions[0]!.session_id)).toEqual(sessions[0]);
    // The limit counts sessions, not index entries: the 2001 ones are the oldest in this table.
    expect((await openSessions.list(3)).map((s) => s.session_id)).toEqual(open.slice(0, 3));
    expect(await openMarker('s_crashed_creation_2001')).toBeUndefined();

    // Ended, they leave the listing (and the older-than tests below see only their own sessions).
    for (const id of open) await repo.transition(id, 'canceled');
    expect(await allOpenCreatedBefore('2001-02-01', 2)).toEqual([[]]);
  });

  it('drops and deletes a marker without META past the creation grace and a marker of an ended session', async () => {
    await putMarker('s_crashed_long_ago', '2002-01-01T00:00:00.000Z');
    // A creation under way: its marker is written before META.
    const underWay = `s_${randomUUID().replaceAll('-', '')}`;
    await putMarker(underWay, new Date().toISOString());
    // A terminal transition whose marker delete never happened (a crash right after the commit).
    const ended = newSession({ created_at: '2002-01-01T00:00:01.000Z' });
    await repo.create(ended, []);
    await repo.transition(ended.session_id, 'failed', { failure_reason: 'x' });
    await putMarker(ended.session_id, ended.created_at);

    const listed = (await allOpenCreatedBefore('2002-02-01', 10)).flat();
    expect(listed).toEqual([]);
    expect(await openMarker('s_crashed_long_ago')).toBeUndefined();
    expect(await openMarker(ended.session_id)).toBeUndefined();
    expect((await repo.get(ended.session_id))?.status).toBe('failed');

    expect((await openSessions.list()).map((s) => s.session_id)).not.toContain(underWay);
    expect(await openMarker(underWay)).toBeDefined();
  });

  it('lists a session written before the marker (gsi1 on META) while open and unlists it when it ends', async () => {
    const legacy = newSession({ created_at: '2003-01-01T00:00:00.000Z' });
    await raw.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `SESSION#${legacy.session_id}`,
          sk: 'META',
          ...legacy,
          gsi1pk: 'OPEN',
          gsi1sk: `${legacy.created_at}#${legacy.session_id}`,
        },
      }),
    );
    const listedOpen = async () => (await allOpenCreatedBefore('2003-02-01', 10)).flat();
    expect(await listedOpen()).toEqual([legacy.session_id]);
    expect((await openSessions.listCreatedBefore('2003-02-01', 10)).sessions).toEqual([legacy]);
    expect((await openSessions.list()).map((s) => s.session_id)).toContain(legacy.session_id);

    await repo.transition(legacy.session_id, 'active', {}, [event('active')]);
    expect(await listedOpen()).toEqual([legacy.session_id]);
    await repo.transition(legacy.session_id, 'completed', { report: asReport({ verdict: 'benign' }) }, [
      event('done'),
    ]);
    expect(await listedOpen()).toEqual([]);
    expect(await metaItem(legacy.session_id)).not.toHaveProperty('gsi1pk');
    expect(await metaItem(legacy.session_id)).not.toHaveProperty('gsi1sk');
    expect(await openMarker(legacy.session_id)).toBeUndefined();
  });
});

const REPORT_FIXTURE =
  '{"summary":"BENIGN · risk 10/100 · user svc-backup@contoso.example\\n1 indicator from 4/4 tools.\\nIndicators:\\n- [low 10] Service account by naming convention (account_analysis)","risk_score":10,"verdict":"benign","persona":"SOC Analyst","entities":[{"type":"user","value":"svc-backup@contoso.example","role":"investigated","attributes":{"account_kind":"service","mail_domain":"contoso.example","disposable_email":false,"free_email":false}}],"findings":[{"finding_id":"account_analysis:service_account","title":"Service account by naming convention","description":"Service accounts run applications and should never log on interactively; interactive or unusual-host use is a classic sign of credential theft (Kerberoasting targets them).","impact":"This account runs software rather than belonging to a person; it should not be used to sign in by hand.","severity":"low","score":10,"source_tool":"account_analysis","category":"privileged_identity","evidence":["svc-backup"],"attack":[{"id":"T1558.003","name":"Steal or Forge Kerberos Tickets: Kerberoasting"}]},{"finding_id":"graph_neighbourhood:not_in_graph","title":"No known relationships","description":"user svc-backup@contoso.example has no edges in the knowledge graph yet.","impact":"It is not connected to anything already assessed as risky.","severity":"info","score":0,"source_tool":"graph_neighbourhood","category":"context","evidence":[]},{"finding_id":"incident_history:no_incidents","title":"No incidents mention it","description":"No synced SIEM incident names user svc-backup@contoso.example.","impact":"It does not appear in any recorded security incident.","severity":"info","score":0,"source_tool":"incident_history","category":"context","evidence":[]},{"finding_id":"prior_investigations:prior_benign","title":"Previously judged benign","description":"The latest earlier verdict on user svc-backup@contoso.example was benign.","impact":"An earlier assessment found no threat.","severity":"info","score":0,"source_tool":"prior_investigations","category":"context","evidence":[]}],"recommendations":["No action needed: close as benign and keep this report as evidence."],"coverage":{"tools_run":4,"tools_succeeded":4,"tools_failed":[],"tools_timed_out":[]},"score_explanation":{"method":"noisy_or","formula":"risk = round(100 × (1 − Π (1 − score_i / 100)))","risk_score":10,"verdict":"benign","verdict_reason":"risk 10 < 30 and 4 of 4 tools succeeded → benign","contributions":[{"finding_id":"account_analysis:service_account","title":"Service account by naming convention","source_tool":"account_analysis","score":10,"points":10}],"sources":[{"source_tool":"account_analysis","findings":1,"alone":10,"points":10}]}}';
