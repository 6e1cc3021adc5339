import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRepository } from '../../../shared/store/sessions/history-repository';
import type { SessionsRepository } from '../../../shared/store/sessions/session-repository';
import type { ToolResultsRepository } from '../../../shared/store/sessions/tool-results-repository';
import {
  asCall,
  asReport,
  body,
  event,
  newSession,
  type SessionsStore,
  sessionsStore,
} from '../../support/sessions-store';

/**
 * A session's history against DynamoDB Local: gap-free order under concurrent writers, item
 * packing, the poll's pages and cost.
 */
let repo: SessionsRepository;
let historyRepo: HistoryRepository;
let toolResults: ToolResultsRepository;
let raw: DynamoDBDocumentClient;
let table: string;
let requests: string[];
let consistent: boolean[];
let onNextQuery: SessionsStore['onNextQuery'];

beforeAll(async () => {
  ({ repo, historyRepo, toolResults, raw, table, requests, consistent, onNextQuery } = await sessionsStore());
});

describe('session history and the poll', () => {
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

    requests.length = 0;
    consistent.length = 0;
    const all = await historyRepo.readPage(session.session_id, undefined, 50);
    expect(requests).toEqual(['QueryCommand']);
    // Eventually consistent: half the read units of a consistent read.
    expect(consistent).toEqual([false]);
    expect(all).toMatchObject({ requests: 1, truncated: false, session: { session_id: session.session_id } });
    expect(all.history.map((h) => h.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(all.consumedReadUnits).toBeGreaterThan(0);

    requests.length = 0;
    const after = await historyRepo.readPage(session.session_id, 4, 50);
    expect(requests).toEqual(['QueryCommand']);
    expect(after.history.map((h) => [h.seq, body(h).type])).toEqual([
      [5, 'e4'],
      [6, 'e5'],
      [7, 'e6'],
      [8, 'e7'],
    ]);
    expect(after.session?.status).toBe('initialized');

    requests.length = 0;
    const nothingNew = await historyRepo.readPage(session.session_id, 8, 50);
    expect(requests).toEqual(['QueryCommand']);
    expect(nothingNew.history).toEqual([]);
    expect(nothingNew.session?.session_id).toBe(session.session_id);

    requests.length = 0;
    const cut = await historyRepo.readPage(session.session_id, undefined, 3);
    expect(requests).toEqual(['QueryCommand', 'GetItemCommand']);
    expect(cut).toMatchObject({ requests: 2, truncated: true, session: { session_id: session.session_id } });
    // The limit counts stored items (4 read), each returned whole.
    expect(cut.history.map((h) => h.seq)).toEqual([1, 2, 3, 4]);
    requests.length = 0;
    const rest = await historyRepo.readPage(session.session_id, 4, 2);
    expect(rest.history.map((h) => h.seq)).toEqual([5, 6, 7, 8]);
    expect(rest.truncated).toBe(false);

    // No session on the replica asked: only a consistent read can tell an unknown session from one
    // created a moment ago.
    requests.length = 0;
    consistent.length = 0;
    const unknown = await historyRepo.readPage('s_unknown_session', undefined, 50);
    expect(requests).toEqual(['QueryCommand', 'QueryCommand']);
    expect(consistent).toEqual([false, true]);
    expect(unknown.session).toBeUndefined();
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
    onNextQuery(async () => {
      await raw.send(new PutCommand({ TableName: table, Item: item(3, ['tool_started', 'tool_succeeded']) }));
    });
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
    onNextQuery(async () => {
      for (const i of endingItems) await raw.send(new PutCommand({ TableName: table, Item: i }));
    });
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
    requests.length = 0;
    const page = await historyRepo.readPage(gapped.session_id, undefined, 50);
    expect(page.history.map((h) => h.seq)).toEqual([1, 3]);
    expect(requests.length).toBeLessThanOrEqual(3);
    expect(page.requests).toBe(requests.length);
  });
});
