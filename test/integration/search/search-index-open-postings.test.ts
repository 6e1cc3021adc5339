import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import type { SearchPosition } from '../../../shared/store/search-index/records';
import { createIsolatedTables } from '../../support/dynamodb';
import {
  isolatedSearchIndex,
  searchEntry,
  searchIndexOn,
  type TestSearchIndex,
} from '../../support/search-index';

/**
 * How the running sessions' open postings (partition SEARCHOPEN#<owner>) merge with the term
 * postings in a key's search, across pages and while sessions end; and the console's list (the
 * tenant postings, written at the start and rewritten at the end) while a session ends.
 */
let index: TestSearchIndex;
let doc: DynamoDBDocumentClient;
let sessionsTable: string;

beforeAll(async () => {
  ({ index, doc, sessionsTable } = await isolatedSearchIndex());
});

const running = { status: 'initialized', verdict: null, risk_score: null, summary: null };
/** A creation time `minutes` after a fixed start, so sort keys order as the numbers do. */
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20) + minutes * 60_000).toISOString();

/** Every page of a key's search, as `<session_id> <status>`, checking each page's size. */
async function searchAll(ownerKeyId: string, terms: string[], limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: SearchPosition | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const page = await index.search({ ownerKeyId, terms, limit, after });
    expect(page.hits.length).toBeLessThanOrEqual(limit);
    ids.push(...page.hits.map((hit) => `${hit.session_id} ${hit.status}`));
    after = page.next;
    if (!after) return ids;
  }
  throw new Error('the search did not end in 200 pages');
}

/**
 * A client on which a session ends between two reads of a page: the first Query that `isRead`
 * picks runs, then `end`, then the other such Queries (sent meanwhile or later) run.
 */
function endingBetweenReads(
  client: DynamoDBDocumentClient,
  isRead: (values: Record<string, unknown>) => boolean,
  end: () => Promise<void>,
): { racing: DynamoDBDocumentClient; ended: () => boolean } {
  let ended = false;
  let first = true;
  const racing = {
    send: async (command: { input: { ExpressionAttributeValues?: Record<string, unknown> } }) => {
      const values = command.input.ExpressionAttributeValues ?? {};
      if (!(command instanceof QueryCommand) || !isRead(values) || ended)
        return client.send(command as never);
      if (first) {
        first = false;
        const result = await client.send(command as never);
        await end();
        ended = true;
        return result;
      }
      // Sent while the first read ran: waits for it and for the end.
      while (!ended) await new Promise((wake) => setTimeout(wake, 5));
      return client.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return { racing, ended: () => ended };
}

describe('search index: running sessions (open postings)', () => {
  it("finds a key's running session however many of its other sessions run (more than one open read)", async () => {
    // 105 running sessions of one key: only the oldest, and the 3rd oldest, have the word.
    const owner = 'openmany0000001';
    const start = ['v:203.0.113.66', 't:ip', 's:initialized'];
    for (let i = 0; i < 105; i += 15) {
      await Promise.all(
        Array.from({ length: Math.min(15, 105 - i) }, (_, j) => i + j).map((n) =>
          index.indexOpenSession(
            searchEntry(`s_many${String(n).padStart(6, '0')}`, owner, at(100 + n), running),
            n === 0 || n === 2 ? [...start, 'w:needle'] : start,
          ),
        ),
      );
    }
    // Completed sessions with the word, all older than the running ones.
    for (const n of [1, 2, 3]) {
      await index.indexSession(searchEntry(`s_done${String(n).padStart(6, '0')}`, owner, at(n)), [
        'v:203.0.113.66',
        'w:needle',
      ]);
    }
    const expected = [
      's_many000002 initialized',
      's_many000000 initialized',
      's_done000003 completed',
      's_done000002 completed',
      's_done000001 completed',
    ];
    expect(await searchAll(owner, ['w:needle'], 10)).toEqual(expected);
    expect(await searchAll(owner, ['w:needle'], 2)).toEqual(expected);
    // Every one of them, each once, newest first.
    const everything = await searchAll(owner, ['t:ip'], 25);
    expect(everything).toHaveLength(105);
    expect(new Set(everything).size).toBe(105);
    expect(everything[0]).toBe('s_many000104 initialized');
    expect(everything.at(-1)).toBe('s_many000000 initialized');
  });

  it('lists a session that ends right after a console page read the tenant postings, once', async () => {
    // Tables of its own: the console reads the whole tenant and open partitions.
    const tables = await createIsolatedTables();
    const own = createDocumentClient(parseConfig({ ...tables.env }));
    const store = searchIndexOn(own, tables.names.sessions);
    const done = ['v:203.0.113.66', 't:ip', 's:completed'];
    const start = ['v:203.0.113.66', 't:ip', 's:initialized'];
    await store.indexSession(searchEntry('s_end0000001', 'key1', at(1)), done);
    const ending = searchEntry('s_end0000002', 'key2', at(2), running);
    await store.indexOpenSession(ending, start);
    await store.indexSession(searchEntry('s_end0000003', 'key1', at(3)), done);

    // The session ends (tenant posting rewritten, then open posting deleted) right after the page's
    // read of the tenant partition.
    const isListRead = (values: Record<string, unknown>) => values[':pk'] === 'TENANT#SESSIONS';
    const { racing, ended } = endingBetweenReads(own, isListRead, () =>
      store.indexSession({ ...ending, status: 'completed', verdict: 'benign', risk_score: 5 }, done),
    );
    const page = await searchIndexOn(racing, tables.names.sessions).listTenant({
      terms: [],
      limit: 10,
    });
    expect(ended()).toBe(true);
    expect(page.hits.map((hit) => hit.session_id)).toEqual(['s_end0000003', 's_end0000002', 's_end0000001']);
  });

  it("finds a key's session that ends while a search page is read, once", async () => {
    const owner = 'openend00000001';
    const done = ['v:203.0.113.66', 't:ip', 's:completed'];
    await index.indexSession(searchEntry('s_kend000001', owner, at(1)), done);
    const ending = searchEntry('s_kend000002', owner, at(2), running);
    await index.indexOpenSession(ending, ['v:203.0.113.66', 't:ip', 's:initialized']);
    await index.indexSession(searchEntry('s_kend000003', owner, at(3)), done);

    // Its end (term postings written, then the open posting deleted) comes between the page's read
    // of the term postings and its read of the open postings, whichever is first.
    const isSearchRead = (values: Record<string, unknown>) =>
      values[':pk'] === `TERM#${owner}#t:ip` || values[':pk'] === `SEARCHOPEN#${owner}`;
    const { racing, ended } = endingBetweenReads(doc, isSearchRead, () =>
      index.indexSession({ ...ending, status: 'completed', verdict: 'benign', risk_score: 5 }, done),
    );
    const page = await searchIndexOn(racing, sessionsTable).search({
      ownerKeyId: owner,
      terms: ['t:ip'],
      limit: 10,
    });
    expect(ended()).toBe(true);
    expect(page.hits.map((hit) => hit.session_id)).toEqual(['s_kend000003', 's_kend000002', 's_kend000001']);
  });
});
