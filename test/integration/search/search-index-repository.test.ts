import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type ServiceInputTypes,
} from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { postingItems } from '../../../shared/store/search-index/postings';
import type { SearchPosition } from '../../../shared/store/search-index/records';
import {
  isolatedSearchIndex,
  searchEntry,
  searchIndexOn,
  type TestSearchIndex,
} from '../../support/search-index';

let index: TestSearchIndex;
let doc: DynamoDBDocumentClient;
let sessionsTable: string;

beforeAll(async () => {
  ({ index, doc, sessionsTable } = await isolatedSearchIndex());
});

describe('search index repository', () => {
  it('finds a session by all its terms, only for its owner, and forgets dropped terms', async () => {
    await index.indexSession(searchEntry('s_aaaaaaaa01', 'ownera', '2026-11-01T00:00:00.000Z'), [
      '203.0.113.66',
      'brute',
      'force',
    ]);
    await index.indexSession(searchEntry('s_aaaaaaaa02', 'ownera', '2026-11-02T00:00:00.000Z'), [
      '203.0.113.66',
      'phishing',
    ]);
    await index.indexSession(searchEntry('s_bbbbbbbb01', 'ownerb', '2026-11-03T00:00:00.000Z'), [
      '203.0.113.66',
      'brute',
    ]);

    const both = await index.search({ ownerKeyId: 'ownera', terms: ['203.0.113.66'], limit: 10 });
    expect(both.hits.map((h) => h.session_id)).toEqual(['s_aaaaaaaa02', 's_aaaaaaaa01']);
    const and = await index.search({ ownerKeyId: 'ownera', terms: ['203.0.113.66', 'brute'], limit: 10 });
    expect(and.hits.map((h) => h.session_id)).toEqual(['s_aaaaaaaa01']);

    await index.indexSession(
      searchEntry('s_aaaaaaaa01', 'ownera', '2026-11-01T00:00:00.000Z', { status: 'failed' }),
      ['203.0.113.66'],
    );
    expect((await index.search({ ownerKeyId: 'ownera', terms: ['brute'], limit: 10 })).hits).toEqual([]);
    const failed = await index.search({
      ownerKeyId: 'ownera',
      terms: ['203.0.113.66'],
      statuses: ['failed'],
      limit: 10,
    });
    expect(failed.hits.map((h) => [h.session_id, h.status])).toEqual([['s_aaaaaaaa01', 'failed']]);
  });

  it('pages newest first without repeats', async () => {
    for (let i = 0; i < 7; i++) {
      await index.indexSession(searchEntry(`s_page0000${i}`, 'ownerc', `2026-10-0${i + 1}T00:00:00.000Z`), [
        'paged',
      ]);
    }
    const ids: string[] = [];
    let after: SearchPosition | undefined;
    do {
      const page = await index.search({ ownerKeyId: 'ownerc', terms: ['paged'], limit: 3, after });
      ids.push(...page.hits.map((h) => h.session_id));
      after = page.next;
    } while (after);
    expect(ids).toEqual([
      's_page00006',
      's_page00005',
      's_page00004',
      's_page00003',
      's_page00002',
      's_page00001',
      's_page00000',
    ]);
  });

  it('reads the rare term of an AND query, and keeps that term across pages', async () => {
    for (let i = 0; i < 60; i++) {
      const terms = ['w:common', ...(i % 20 === 0 ? ['w:rare'] : []), ...(i % 2 === 0 ? ['w:half'] : [])];
      await index.indexSession(
        searchEntry(
          `s_and000${String(i).padStart(3, '0')}`,
          'ownerd',
          new Date(Date.UTC(2026, 8, 1, 0, i)).toISOString(),
        ),
        terms,
      );
    }
    const rare = await index.search({ ownerKeyId: 'ownerd', terms: ['w:common', 'w:rare'], limit: 10 });
    expect(rare.hits.map((h) => h.session_id)).toEqual(['s_and000040', 's_and000020', 's_and000000']);
    expect(rare.next).toBeUndefined();

    const ids: string[] = [];
    let after: SearchPosition | undefined;
    do {
      const page = await index.search({
        ownerKeyId: 'ownerd',
        terms: ['w:common', 'w:half'],
        limit: 7,
        after,
      });
      ids.push(...page.hits.map((h) => h.session_id));
      after = page.next;
      if (after) expect(after.driving).toBe('w:common');
    } while (after);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it('keeps postings under 1 KB with 60 terms, and still reads postings of the older layout', async () => {
    const terms = Array.from({ length: 60 }, (_, i) => `w:investigationword${String(i).padStart(3, '0')}`);
    const items = postingItems(
      searchEntry('s_layout0001', 'k7x2m9q4w8e1r5t3', '2026-11-05T00:00:00.000Z', {
        summary: 'x'.repeat(300),
        owner_name: 'Jane Analyst-Doe',
      }),
      terms,
    );
    const [posting, tenant] = [items[0]!, items.at(-1)!];
    expect(tenant.pk).toBe('TENANT#SESSIONS');
    expect(posting).not.toHaveProperty('terms');
    // The ID and creation time are read back from the sort key, not stored again.
    expect(posting).not.toHaveProperty('created_at');
    // DynamoDB's item size: attribute names plus values (a set counts its members).
    const sizeOf = (item: Record<string, unknown>) =>
      Object.entries(item).reduce((sum, [name, value]) => {
        const bytes =
          value instanceof Set
            ? [...value].reduce((s: number, v) => s + String(v).length, 0)
            : JSON.stringify(value).length;
        return sum + name.length + bytes;
      }, 0);
    expect(sizeOf(posting)).toBeLessThan(1024);
    // The tenant posting names its owner too (its key does not), and still fits.
    expect(sizeOf(tenant)).toBeLessThan(1024);

    // A session indexed before the hashed layout: the whole term list and the IDs as attributes.
    const old = searchEntry('s_layout0002', 'ownere', '2026-11-06T00:00:00.000Z');
    const oldTerms = ['v:203.0.113.66', 'w:legacy', 'w:layout'];
    const { th: _th, ...fields } = postingItems(old, oldTerms)[0]!;
    await doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [sessionsTable]: oldTerms.map((term) => ({
            PutRequest: {
              Item: {
                ...fields,
                pk: `TERM#ownere#${term}`,
                session_id: old.session_id,
                owner_key_id: old.owner_key_id,
                created_at: old.created_at,
                terms: oldTerms,
              },
            },
          })),
        },
      }),
    );
    await index.indexSession(searchEntry('s_layout0003', 'ownere', '2026-11-07T00:00:00.000Z'), [
      'v:203.0.113.66',
      'w:legacy',
    ]);
    const found = await index.search({ ownerKeyId: 'ownere', terms: ['w:layout', 'w:legacy'], limit: 10 });
    expect(found.hits.map((h) => [h.session_id, h.owner_key_id, h.created_at])).toEqual([
      ['s_layout0002', 'ownere', '2026-11-06T00:00:00.000Z'],
    ]);
    const both = await index.search({
      ownerKeyId: 'ownere',
      terms: ['v:203.0.113.66', 'w:legacy'],
      limit: 10,
    });
    expect(both.hits.map((h) => h.session_id)).toEqual(['s_layout0003', 's_layout0002']);
  });

  it('finds a running session by every term from ONE open posting, which its first full index replaces', async () => {
    // Writes by kind, through a client that records what each command writes.
    const writes: string[] = [];
    const recording = {
      send: (command: { input: ServiceInputTypes; constructor: { name: string } }) => {
        const input = command.input as Record<string, any>;
        if (command.constructor.name === 'BatchWriteCommand') {
          for (const request of Object.values(input.RequestItems) as any[][]) {
            for (const r of request) {
              const key = r.PutRequest?.Item ?? r.DeleteRequest?.Key;
              writes.push(`${r.PutRequest ? 'put' : 'delete'} ${String(key.pk).split('#')[0]}`);
            }
          }
        } else if (command.constructor.name === 'PutCommand') {
          writes.push(`put ${String(input.Item.pk).split('#')[0]}`);
        } else if (command.constructor.name === 'DeleteCommand') {
          writes.push(`delete ${String(input.Key.pk).split('#')[0]}`);
        }
        return doc.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    const recorded = searchIndexOn(recording, sessionsTable);
    const startTerms = ['v:198.51.100.9', 't:ip', 's:initialized', 'p:soc-analyst'];
    const running = searchEntry('s_open000002', 'ownerf', '2026-11-09T00:00:00.000Z', {
      status: 'initialized',
      verdict: null,
      risk_score: null,
      summary: null,
    });
    await index.indexSession(searchEntry('s_open000001', 'ownerf', '2026-11-08T00:00:00.000Z'), [
      'v:198.51.100.9',
      't:ip',
      's:completed',
    ]);
    await index.indexSession(searchEntry('s_open000003', 'ownerf', '2026-11-10T00:00:00.000Z'), [
      'v:198.51.100.9',
      't:ip',
      's:completed',
    ]);

    await recorded.indexOpenSession(running, startTerms);
    expect(writes.sort()).toEqual(['put SEARCHOPEN', 'put TENANT']);

    // Every term finds it, merged newest first with the finished sessions, and filters apply.
    for (const terms of [['v:198.51.100.9'], ['t:ip', 's:initialized'], ['p:soc-analyst']]) {
      const page = await index.search({ ownerKeyId: 'ownerf', terms, limit: 10 });
      expect(page.hits.map((h) => h.session_id)).toContain('s_open000002');
    }
    const all = await index.search({ ownerKeyId: 'ownerf', terms: ['v:198.51.100.9'], limit: 10 });
    expect(all.hits.map((h) => [h.session_id, h.status])).toEqual([
      ['s_open000003', 'completed'],
      ['s_open000002', 'initialized'],
      ['s_open000001', 'completed'],
    ]);
    const completedOnly = await index.search({
      ownerKeyId: 'ownerf',
      terms: ['v:198.51.100.9'],
      statuses: ['completed'],
      limit: 10,
    });
    expect(completedOnly.hits.map((h) => h.session_id)).toEqual(['s_open000003', 's_open000001']);
    expect((await index.search({ ownerKeyId: 'ownerg', terms: ['t:ip'], limit: 10 })).hits).toEqual([]);

    // Pages of one: the running session takes its place by sort key, nothing repeats or goes missing.
    const paged: string[] = [];
    let after: SearchPosition | undefined;
    do {
      const page = await index.search({ ownerKeyId: 'ownerf', terms: ['t:ip'], limit: 1, after });
      expect(page.hits.length).toBeLessThanOrEqual(1);
      paged.push(...page.hits.map((h) => h.session_id));
      after = page.next;
    } while (after);
    expect(paged).toEqual(['s_open000003', 's_open000002', 's_open000001']);

    // Its end: a posting per term, the tenant posting and the term document, then the open posting
    // is deleted. Nothing is rewritten and no stale term is deleted (there are none).
    writes.length = 0;
    const endTerms = ['v:198.51.100.9', 't:ip', 's:completed', 'p:soc-analyst', 'w:scanner'];
    await recorded.indexSession(
      { ...running, status: 'completed', verdict: 'suspicious', risk_score: 50, summary: 'A scanner.' },
      endTerms,
    );
    expect(writes.sort()).toEqual(
      [...endTerms.map(() => 'put TERM'), 'put TENANT', 'put SEARCHDOC', 'delete SEARCHOPEN'].sort(),
    );
    const open = await doc.send(
      new QueryCommand({
        TableName: sessionsTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'SEARCHOPEN#ownerf' },
      }),
    );
    expect(open.Items).toEqual([]);
    expect((await index.search({ ownerKeyId: 'ownerf', terms: ['s:initialized'], limit: 10 })).hits).toEqual(
      [],
    );
    const ended = await index.search({ ownerKeyId: 'ownerf', terms: ['w:scanner'], limit: 10 });
    expect(ended.hits.map((h) => [h.session_id, h.status])).toEqual([['s_open000002', 'completed']]);
  });

  it('leaves no posting its term document does not list when a cancel re-indexes the session during the completing step', async () => {
    const session = searchEntry('s_race000001', 'ownerrace', '2026-11-10T00:00:00.000Z');
    const completed = ['v:203.0.113.66', 't:ip', 's:completed', 'vd:malicious', 'w:brute', 'w:force'];
    const canceled = ['v:203.0.113.66', 't:ip', 's:canceled'];
    // The completing step indexes the completed view; a cancel commits meanwhile and re-indexes the
    // session between the completing step's document write and its postings.
    let cancelRan = false;
    const interleaved = {
      send: async (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'BatchWriteCommand' && !cancelRan) {
          cancelRan = true;
          await index.indexSession({ ...session, status: 'canceled', verdict: null }, canceled);
        }
        return doc.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    await searchIndexOn(interleaved, sessionsTable).indexSession(session, completed);
    expect(cancelRan).toBe(true);

    const listed = async () => {
      const { Item } = await doc.send(
        new GetCommand({ TableName: sessionsTable, Key: { pk: 'SEARCHDOC#s_race000001', sk: 'TERMS' } }),
      );
      return [...((Item?.terms as string[]) ?? [])].sort();
    };
    const posted = async () => {
      const found: string[] = [];
      for (const term of new Set([...completed, ...canceled])) {
        const { Items } = await doc.send(
          new QueryCommand({
            TableName: sessionsTable,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `TERM#ownerrace#${term}` },
          }),
        );
        if (Items?.length) found.push(term);
      }
      return found.sort();
    };
    // Every posting is one the document lists, so the next re-index can delete it.
    expect(await posted()).toEqual(await listed());
    // The completing step's transition is then refused (canceled) and it re-indexes what stuck.
    await index.indexSession({ ...session, status: 'canceled', verdict: null }, canceled);
    expect(await posted()).toEqual([...canceled].sort());
    expect(await listed()).toEqual([...canceled].sort());
    expect((await index.search({ ownerKeyId: 'ownerrace', terms: ['w:brute'], limit: 10 })).hits).toEqual([]);
  });
});
