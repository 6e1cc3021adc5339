import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../../shared/config';
import { partitionsFor, postingTermsFor } from '../../../shared/domain/search/search-phrases';
import { termsForQuery, termsForSession } from '../../../shared/domain/search/search-terms';
import { documentClientFor } from '../../../shared/store/dynamo-client';
import { termHash } from '../../../shared/store/search-index/keys';
import { postingItems } from '../../../shared/store/search-index/postings';
import type { SearchEntry } from '../../../shared/store/search-index/records';
import { tableName } from '../../../shared/store/tables';
import { startTestService, type TestService } from '../../support/local-service';
import { configuredSearchIndex } from '../../support/search-index';

/**
 * Phrase postings end to end: real investigations (rules analyst) are posted once per phrase of the
 * engine's text, and every query returns exactly the sessions whose findable terms (the term set
 * each posting carries, here read from the tenant list) hold all its terms, newest first, also
 * across pages and for a session indexed before phrases existed (a posting per word).
 */
let service: TestService;
let owner: { keyId: string; apiKey: string };
const sessions: string[] = [];

const ENTITIES = [
  { type: 'ip', value: '203.0.113.7' },
  { type: 'ip', value: '10.20.30.40' },
  { type: 'ip', value: '203.0.113.9' },
  { type: 'domain', value: 'micros0ft-login.com' },
  { type: 'user', value: 'j.doe@contoso.example' },
  { type: 'host', value: 'ws-0142' },
  { type: 'ip', value: '2001:db8::7' },
  // Again: now judged before.
  { type: 'ip', value: '203.0.113.7' },
];

const DOCUMENTATION =
  '198.51.100.4 is reserved for documentation (TEST-NET-1/2/3, 2001:db8::/32, 3fff::/20) and never appears in real traffic: it points to test data, a placeholder left in a configuration, or spoofing.';

const index = () => configuredSearchIndex(config());

function oldLayoutEntry(id: string, createdAt: string): { entry: SearchEntry; findable: string[] } {
  const entry: SearchEntry = {
    session_id: id,
    owner_key_id: owner.keyId,
    status: 'completed',
    entity: { type: 'ip', value: '198.51.100.4' },
    persona: 'SOC Analyst',
    created_at: createdAt,
    risk_score: 15,
    verdict: 'benign',
    summary: 'Documentation-only address.',
  };
  const findable = termsForSession({
    ...entry,
    findings: [{ title: 'Documentation-only address', description: DOCUMENTATION }],
  });
  return { entry, findable };
}

beforeAll(async () => {
  service = await startTestService();
  owner = await service.createKey({
    name: 'phrases',
    rate_limit: { rate_per_second: 1_000, burst: 1_000 },
  });
  for (const entity of ENTITIES) {
    const started = await service.call('POST', '/api/v1/investigations/start', {
      key: owner.apiKey,
      body: { entity, background: true },
    });
    expect(started.status).toBe(202);
    await service.stepFunctions.idle();
    sessions.push(started.body.session_id);
  }
  // Indexed before phrase postings: one posting per findable term, the document listing them all.
  const { entry, findable } = oldLayoutEntry('s_oldlayout0001', '2026-11-20T08:00:00.000Z');
  await index().indexSession(entry, findable);
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

async function tenantPostings(): Promise<{ id: string; sk: string; th: Set<string> }[]> {
  const result = await documentClientFor(config()).send(
    new QueryCommand({
      TableName: tableName(config(), 'sessions'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'TENANT#SESSIONS' },
      ScanIndexForward: false,
    }),
  );
  return (result.Items ?? [])
    .filter((item) => item.owner_key_id === owner.keyId)
    .map((item) => ({
      id: String(item.sk).slice(String(item.sk).indexOf('#') + 1),
      sk: String(item.sk),
      th: item.th as Set<string>,
    }));
}

/** The sessions a query must return: those whose findable terms hold every query term, newest first. */
async function reference(q: string): Promise<string[]> {
  const { terms } = termsForQuery(q);
  const hashes = terms.map(termHash);
  return (await tenantPostings()).filter((p) => hashes.every((h) => p.th.has(h))).map((p) => p.id);
}

async function searchAll(q: string, limit: number): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const query = new URLSearchParams({ q, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await service.call('GET', `/api/v1/search?${query}`, { key: owner.apiKey });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    found.push(...response.body.results.map((r: { session_id: string }) => r.session_id));
    cursor = response.body.next_cursor ?? undefined;
    if (!cursor) return found;
  }
  throw new Error(`no last page for ${q}`);
}

async function postingsUnder(term: string): Promise<string[]> {
  const result = await documentClientFor(config()).send(
    new QueryCommand({
      TableName: tableName(config(), 'sessions'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `TERM#${owner.keyId}#${term}` },
    }),
  );
  return (result.Items ?? []).map((item) => String(item.sk).slice(String(item.sk).indexOf('#') + 1));
}

const QUERIES = [
  'documentation',
  'traffic',
  'mention',
  'judged',
  'relationships',
  'private',
  'documentation spoofing placeholder',
  '"never appears in real traffic"',
  'documentation type:ip',
  'mention type:user',
  'incidents 203.0.113.7',
  'naming convention',
  'risk indicators',
  'look-alike',
];

describe('search with phrase postings', () => {
  it('posts completed investigations under phrases, fewer postings than findable words', async () => {
    const phrased = (await tenantPostings()).filter((p) => sessions.includes(p.id));
    expect(phrased).toHaveLength(ENTITIES.length);
    const x = await postingsUnder(
      postingTermsFor(oldLayoutEntry('s_x', '').findable).find((t) => t.startsWith('x:'))!,
    );
    // The documentation IPs (203.0.113.7 twice, 203.0.113.9, 2001:db8::7) share the description's phrase.
    expect(x.filter((id) => sessions.includes(id)).sort()).toEqual(
      [sessions[0], sessions[2], sessions[6], sessions[7]].sort(),
    );
  });

  it.each(QUERIES)('returns for %s exactly the sessions having every term, newest first', async (q) => {
    const expected = await reference(q);
    expect(await searchAll(q, 100)).toEqual(expected);
  });

  it('finds every query word in some session and leaves some session out (the checks are not vacuous)', async () => {
    const counts = await Promise.all(QUERIES.map(async (q) => (await reference(q)).length));
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(counts.some((n) => n < ENTITIES.length)).toBe(true);
    expect(await reference('documentation')).toContain('s_oldlayout0001');
  });

  it('pages through the union of a word partition and its phrase partitions without loss or repeat', async () => {
    for (const q of ['documentation', 'traffic', 'incidents', 'documentation type:ip', 'risk indicators']) {
      const expected = await reference(q);
      expect(expected.length).toBeGreaterThan(1);
      expect(await searchAll(q, 1), q).toEqual(expected);
      expect(await searchAll(q, 2), q).toEqual(expected);
    }
  });

  it('removes stale phrase postings when a session is re-indexed', async () => {
    const { entry, findable } = oldLayoutEntry('s_reindexed001', '2026-11-21T08:00:00.000Z');
    const posted = postingTermsFor(findable);
    const phrase = posted.find((t) => t.startsWith('x:'))!;
    await index().indexSession(entry, findable, posted);
    expect(await postingsUnder(phrase)).toContain('s_reindexed001');
    expect(await searchAll('documentation placeholder', 100)).toContain('s_reindexed001');

    const changed = termsForSession({ ...entry, summary: 'Re-assessed.', findings: [] });
    await index().indexSession(entry, changed, postingTermsFor(changed));
    expect(await postingsUnder(phrase)).not.toContain('s_reindexed001');
    expect(await searchAll('documentation placeholder', 100)).not.toContain('s_reindexed001');
    expect(await searchAll('documentation', 100)).toEqual(await reference('documentation'));
  });
});

describe('a term read from several partitions (store)', () => {
  it('merges them newest first when filters leave few matches per read, across pages', async () => {
    // 300 sessions with the word alpha: every third posted under the word (the layout before
    // phrases), the others under a phrase containing it; every seventh failed. A filtered read takes
    // 100 postings per partition, so partitions stop at different points of time on every page.
    const ownerKeyId = 'ownerunion';
    const items = Array.from({ length: 300 }, (_, i) => {
      const entry: SearchEntry = {
        session_id: `s_union${String(i).padStart(5, '0')}`,
        owner_key_id: ownerKeyId,
        status: i % 7 === 0 ? 'failed' : 'completed',
        entity: { type: 'ip', value: '203.0.113.7' },
        persona: 'SOC Analyst',
        created_at: new Date(Date.UTC(2026, 10, 1) + i * 60_000 + (i % 3) * 7_000).toISOString(),
      };
      const findable = ['t:ip', 'w:alpha', 'w:beta', 'w:gamma'];
      return postingItems(entry, findable, i % 3 === 0 ? findable : ['t:ip', 'x:abg']);
    }).flat();
    const doc = documentClientFor(config());
    for (let i = 0; i < items.length; i += 25) {
      await doc.send(
        new BatchWriteCommand({
          RequestItems: {
            [tableName(config(), 'sessions')]: items
              .slice(i, i + 25)
              .map((Item) => ({ PutRequest: { Item } })),
          },
        }),
      );
    }
    const expected = Array.from({ length: 300 }, (_, i) => i)
      .filter((i) => i % 7 === 0)
      .reverse()
      .map((i) => `s_union${String(i).padStart(5, '0')}`);
    const partitions = { 'w:alpha': ['w:alpha', 'x:abg'], 'w:beta': ['w:beta', 'x:abg'] };
    for (const [terms, limit] of [
      [['w:alpha'], 3],
      [['w:alpha'], 20],
      [['w:alpha'], 50],
      [['w:alpha', 'w:beta'], 4],
    ] as const) {
      const found: string[] = [];
      let after: { driving: string; sk: string } | undefined;
      for (let page = 0; page < 100; page++) {
        const result = await index().search({
          ownerKeyId,
          terms,
          partitions,
          statuses: ['failed'],
          limit,
          after,
        });
        expect(result.hits.length).toBeLessThanOrEqual(limit);
        found.push(...result.hits.map((hit) => hit.session_id));
        after = result.next;
        if (!after) break;
      }
      expect(found, `${terms} by ${limit}`).toEqual(expected);
    }
  });
});

describe('a word read through the verdict and type partitions that stand in for it (store and service)', () => {
  it('returns a session posted only under the verdict when it has the word, never one without it', async () => {
    const ownerKeyId = 'ownercover';
    const entry = (id: string, minute: number, summary: string): SearchEntry => ({
      session_id: id,
      owner_key_id: ownerKeyId,
      status: 'completed',
      entity: { type: 'user', value: `${id}@contoso.example` },
      persona: 'SOC Analyst',
      created_at: new Date(Date.UTC(2026, 10, 2, 0, minute)).toISOString(),
      verdict: 'benign',
      summary,
    });
    // Both benign; only the first says so (an analyst's free text need not).
    const said = entry('s_coversaid', 1, 'BENIGN · nothing found');
    const unsaid = entry('s_coverunsaid', 2, 'Nothing found');
    for (const session of [said, unsaid]) {
      const findable = termsForSession(session);
      const posted = postingTermsFor(findable);
      expect(posted).not.toContain('w:benign');
      await index().indexSession(session, findable, posted);
    }
    const search = async (q: string) => {
      const { terms } = termsForQuery(q);
      const partitions = Object.fromEntries(terms.map((term) => [term, partitionsFor(term)]));
      return (await index().search({ ownerKeyId, terms, partitions, limit: 10 })).hits.map(
        (h) => h.session_id,
      );
    };
    expect(await search('benign')).toEqual(['s_coversaid']);
    expect(await search('verdict:benign')).toEqual(['s_coverunsaid', 's_coversaid']);
    expect(await search('benign nothing')).toEqual(['s_coversaid']);
  });
});
