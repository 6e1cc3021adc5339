import { createHash } from 'node:crypto';
import {
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import type { Entity } from '../domain/core/entity';
import { documentClientFor } from './dynamo-client';
import { tableName } from './tables';

/**
 * The investigation search index: an inverted index in the sessions table.
 *
 * - posting   pk `TERM#<ownerKeyId>#<term>`, sk `<created_at>#<session_id>`: one item per posting
 *             term of a session, carrying the result fields and the session's whole (findable) term
 *             set, so a query for several terms is ONE Query on one term's partitions (newest first)
 *             with the other terms checked inside the items (`contains(th, :h)`). The owner is part
 *             of the partition key: a key can only ever read postings of its own sessions.
 *             Posting terms (domain `postingTermsFor`, shared/domain/search/search-phrases.ts) are the
 *             findable terms except that a phrase of the rules engine's text (`x:<id>`) stands for
 *             its words when the session has all of them; a word is read from its own partition and
 *             those of its phrases and of the verdict or type term naming it (domain `partitionsFor`),
 *             merged by sort key, the word checked inside every posting not read from its own. Sessions
 *             indexed before phrases (a posting per word) are found in the word's own partition.
 *             The term set is stored as 48-bit hashes (`th`, a string set of 8 base64url characters
 *             per term) and the session ID, creation time and owner are read back from the keys: a
 *             posting is then under 1 KB (one write unit) for a session with its full 60 terms, where
 *             the plain term list made it 1-2 KB. A hash can only add a match, never lose one; two
 *             different terms share a hash with odds of about 1 in 10^12 per posting examined.
 *             Postings written before carry the plain list (`terms`), which the filters still read.
 * - document  pk `SEARCHDOC#<session_id>`, sk `TERMS`: the posting terms last written, so
 *             re-indexing deletes postings the session no longer has (phrase postings included).
 * - tenant    pk `TENANT#SESSIONS`, sk `<created_at>#<session_id>`: one more posting per session,
 *             whatever its owner, for the web console (people see every session of the tenant).
 *             Listing is one Query newest first; a console search filters it with `contains(th)`.
 *             Chosen over a GSI (which would copy every posting) and over per-term tenant postings
 *             (which would double the index's writes): it costs one item write per re-index.
 * - open      pk `SEARCHOPEN#<ownerKeyId>`, sk `<created_at>#<session_id>`: ONE posting with the
 *             session's whole term set while it runs (`indexOpenSession`, at the start), instead of
 *             a posting per term. Every term posting would be rewritten when the session ends (its
 *             status, verdict and summary change), so writing them at the start cost a write per
 *             term twice, plus a stale status term to delete; one open posting costs one write and
 *             one delete. A search reads the caller's open partition before the term postings (one
 *             more Query, ≤ MAX_OPEN_READ items: only sessions still running) and merges by sort key,
 *             so a running session is found by every term it has, and a page costs the same at every
 *             number of finished sessions. A key with more running sessions than one read holds gets
 *             a page that ends where that read stopped (the next page reads on from there). The first
 *             full index (`indexSession`) deletes it.
 *
 * Re-indexing first widens the document to old ∪ new terms, then writes and deletes postings, then
 * narrows the document: a crash in between leaves extra postings that the next re-index removes,
 * never postings that nothing knows about.
 */
export interface SearchEntry {
  session_id: string;
  owner_key_id: string;
  status: string;
  entity: Entity;
  persona: string;
  created_at: string;
  risk_score?: number | null;
  verdict?: string | null;
  summary?: string | null;
}

export interface SearchIndexQuery {
  ownerKeyId: string;
  /** Normalised query terms, rarest kind first (domain `termsForQuery`). */
  terms: readonly string[];
  /**
   * The posting partitions whose union holds exactly the sessions having a term (domain
   * `partitionsFor`: a word's own, its phrases' and its verdict's or type's, where postings are
   * checked for the term); a term not listed is read from its own only.
   */
  partitions?: Readonly<Record<string, readonly string[]>> | undefined;
  statuses?: readonly string[] | undefined;
  verdicts?: readonly string[] | undefined;
  limit: number;
  /** Where the previous page ended: the term whose postings are read and the last sort key. */
  after?: SearchPosition | undefined;
}

export interface SearchPosition {
  driving: string;
  sk: string;
}

export interface SearchIndexPage {
  hits: SearchEntry[];
  /** Where to continue; absent on the last page. */
  next?: SearchPosition;
}

/** Postings per session: bounded so a pathological report cannot turn one index into thousands of writes. */
export const MAX_TERMS_PER_SESSION = 200;
export const MAX_TERM_LENGTH = 128;
/** Summary kept on each posting (the result list shows a snippet, the report route the whole text). */
export const POSTING_SUMMARY_LENGTH = 300;
/** Items one search may examine before it answers with what it has and a cursor. */
const MAX_EVALUATED_PER_SEARCH = 2_000;
const MAX_ATTEMPTS = 5;

/** Open postings one search page reads: the caller's running sessions, newest first (more: next page). */
const MAX_OPEN_READ = 100;

const DOC_SK = 'TERMS';
const TENANT_PK = 'TENANT#SESSIONS';
const termPk = (owner: string, term: string) => `TERM#${owner}#${term}`;
const openPk = (owner: string) => `SEARCHOPEN#${owner}`;
const docPk = (sessionId: string) => `SEARCHDOC#${sessionId}`;
const postingSk = (entry: Pick<SearchEntry, 'created_at' | 'session_id'>) =>
  `${entry.created_at}#${entry.session_id}`;

type Item = Record<string, unknown>;

const TERM_NAMES = { '#th': 'th', '#terms': 'terms' };

/** A filter for postings having `term`: its hash, or the term itself on a posting of the older layout. */
function hasTerm(values: Record<string, unknown>, term: string, i: number): string {
  values[`:h${i}`] = termHash(term);
  values[`:t${i}`] = term;
  return `(contains(#th, :h${i}) OR contains(#terms, :t${i}))`;
}

/** The query's status and verdict filters (`IN` lists), names and values added to the maps given. */
function fieldFilters(
  query: Pick<SearchIndexQuery, 'statuses' | 'verdicts'>,
  names: Record<string, string>,
  values: Record<string, unknown>,
): string[] {
  const filters: string[] = [];
  const inList = (attribute: string, list: readonly string[] | undefined, tag: string) => {
    if (!list?.length) return;
    names[`#${tag}`] = attribute;
    const placeholders = list.map((value, i) => {
      values[`:${tag}${i}`] = value;
      return `:${tag}${i}`;
    });
    filters.push(`#${tag} IN (${placeholders.join(', ')})`);
  };
  inList('status', query.statuses, 'st');
  inList('verdict', query.verdicts, 'vd');
  return filters;
}

function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The hash a term is stored and matched under (see the posting layout above). */
export function termHash(term: string): string {
  return createHash('sha256').update(term).digest('base64url').slice(0, 8);
}

function entryFromItem(item: Item): SearchEntry {
  const entity = item.entity as Entity;
  const sk = String(item.sk);
  const cut = sk.indexOf('#');
  const pk = String(item.pk);
  return {
    session_id: String(item.session_id ?? sk.slice(cut + 1)),
    // TERM#<owner>#<term>; the tenant posting names its owner.
    owner_key_id: String(item.owner_key_id ?? pk.slice('TERM#'.length, pk.indexOf('#', 'TERM#'.length))),
    status: String(item.status),
    entity: { type: entity.type, value: entity.value },
    persona: String(item.persona),
    created_at: String(item.created_at ?? sk.slice(0, cut)),
    risk_score: typeof item.risk_score === 'number' ? item.risk_score : null,
    verdict: typeof item.verdict === 'string' ? item.verdict : null,
    summary: typeof item.summary === 'string' ? item.summary : null,
  };
}

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** Another re-index of the same session moved its term document while this one wrote postings. */
class ConcurrentReindex extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId} was re-indexed concurrently`);
    this.name = 'ConcurrentReindex';
  }
}

/** The result fields and term hashes every posting of a session carries. */
function postingFields(entry: SearchEntry, terms: readonly string[]) {
  return {
    status: entry.status,
    entity: { type: entry.entity.type, value: entry.entity.value },
    persona: entry.persona,
    created_at: entry.created_at,
    ...(typeof entry.risk_score === 'number' ? { risk_score: entry.risk_score } : {}),
    ...(entry.verdict ? { verdict: entry.verdict } : {}),
    ...(entry.summary ? { summary: shorten(entry.summary, POSTING_SUMMARY_LENGTH) } : {}),
    th: new Set(terms.map(termHash)),
  };
}

/**
 * The session's posting under `pk` naming its owner: in the tenant partition (the console's list)
 * or in the owner's open partition (a running session).
 */
function ownedPosting(pk: string, entry: SearchEntry, terms: readonly string[]): Item {
  return {
    pk,
    sk: postingSk(entry),
    owner_key_id: entry.owner_key_id,
    ...postingFields(entry, terms),
  };
}

/**
 * The postings of a session (also for bulk seeding by tooling and benchmarks): one under each of
 * `posted` (domain `postingTermsFor`; by default one per findable term, the layout before phrase
 * postings) and the tenant posting, each carrying the `findable` terms the filters check.
 */
export function postingItems(
  entry: SearchEntry,
  findable: readonly string[],
  posted: readonly string[] = findable,
): Item[] {
  const posting = postingFields(entry, findable);
  return [
    ...posted.map((term) => ({ pk: termPk(entry.owner_key_id, term), sk: postingSk(entry), ...posting })),
    ownedPosting(TENANT_PK, entry, findable),
  ];
}

/** Index terms as stored: non-empty, at most MAX_TERM_LENGTH, no repeats, at most MAX_TERMS_PER_SESSION. */
function storedTerms(terms: readonly string[]): string[] {
  return [...new Set(terms.filter((t) => t.length > 0 && t.length <= MAX_TERM_LENGTH))].slice(
    0,
    MAX_TERMS_PER_SESSION,
  );
}

/** Sort keys, newest first. */
const newestFirst = (a: SearchEntry, b: SearchEntry) => {
  const [x, y] = [postingSk(a), postingSk(b)];
  return x < y ? 1 : x > y ? -1 : 0;
};

export interface TenantListQuery {
  /** Normalised terms every listed session must have; none lists all. */
  terms: readonly string[];
  limit: number;
  /** The sort key the previous page ended at. */
  after?: string | undefined;
  /** Only the sessions of this key (the public listing of the caller's own sessions). */
  ownerKeyId?: string | undefined;
  /** Only sessions created at or after this ISO time (a key condition: older ones are not read). */
  since?: string | undefined;
}

export class SearchIndexRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Makes the session findable by exactly `findable` (domain `termsForSession`), posted under
   * `posted` (domain `postingTermsFor`), replacing whatever it was indexed under before. Call it
   * whenever the session's searchable fields change. A session's owner, created_at and session_id
   * never change, so its postings keep one sort key for life.
   */
  async indexSession(
    entry: SearchEntry,
    findable: readonly string[],
    posted: readonly string[] = findable,
  ): Promise<void> {
    const terms = { findable: storedTerms(findable), posted: storedTerms(posted) };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.tryIndex(entry, terms);
        break;
      } catch (error) {
        const concurrent = isConditionFailure(error) || error instanceof ConcurrentReindex;
        if (!concurrent || attempt >= MAX_ATTEMPTS) throw error;
        await pause(Math.random() * 20 * 2 ** attempt);
      }
    }
    // After the term postings exist, so a search in between (it reads the open postings before the
    // others) finds the session twice (merged into one hit), never not at all.
    await this.doc.send(
      new DeleteCommand({
        TableName: this.table,
        Key: { pk: openPk(entry.owner_key_id), sk: postingSk(entry) },
      }),
    );
  }

  /**
   * Makes a session that has just started findable by exactly `terms` (and listed in the tenant
   * partition) with two item writes: its open posting and its tenant posting. Call it once, before
   * anything else indexes the session; the first `indexSession` replaces both.
   */
  async indexOpenSession(entry: SearchEntry, terms: readonly string[]): Promise<void> {
    const wanted = storedTerms(terms);
    await this.batchWrite([
      { PutRequest: { Item: ownedPosting(TENANT_PK, entry, wanted) } },
      { PutRequest: { Item: ownedPosting(openPk(entry.owner_key_id), entry, wanted) } },
    ]);
  }

  private async tryIndex(
    entry: SearchEntry,
    { findable, posted: terms }: { findable: string[]; posted: string[] },
  ): Promise<void> {
    const { Item: current } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: docPk(entry.session_id), sk: DOC_SK },
        ConsistentRead: true,
      }),
    );
    const previousTerms = Array.isArray(current?.terms) ? current.terms.map(String) : [];
    let version = current ? Number(current.version ?? 0) : undefined;

    const putDoc = async (docTerms: string[]) => {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: docPk(entry.session_id), sk: DOC_SK, terms: docTerms, version: (version ?? 0) + 1 },
          ...(version === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': version },
              }),
        }),
      );
      version = (version ?? 0) + 1;
    };

    const stale = previousTerms.filter((term) => !terms.includes(term));
    const widened = [...new Set([...previousTerms, ...terms])];
    if (current === undefined || widened.length > previousTerms.length) await putDoc(widened);

    const requests: Record<string, unknown>[] = [
      ...stale.map((term) => ({
        DeleteRequest: { Key: { pk: termPk(entry.owner_key_id, term), sk: postingSk(entry) } },
      })),
      ...postingItems(entry, findable, terms).map((Item) => ({ PutRequest: { Item } })),
    ];
    await this.batchWrite(requests);
    if (stale.length > 0) {
      await putDoc(terms);
      return;
    }
    // The document already lists exactly the posted terms, unless another re-index of the session
    // (a cancel's while the completing step indexes) moved it meanwhile: that one may have deleted
    // postings this one wrote again after, which its document then no longer lists. A consistent
    // read of the version tells; the caller then indexes again from the document as it is now.
    const { Item: after } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: docPk(entry.session_id), sk: DOC_SK },
        ConsistentRead: true,
        ProjectionExpression: '#version',
        ExpressionAttributeNames: { '#version': 'version' },
      }),
    );
    // A document written before versions counts as version 0, as when it was read above.
    if ((after ? Number(after.version ?? 0) : undefined) !== version)
      throw new ConcurrentReindex(entry.session_id);
  }

  private async batchWrite(requests: Record<string, unknown>[]): Promise<void> {
    for (let i = 0; i < requests.length; i += 25) {
      let pending: Record<string, unknown>[] | undefined = requests.slice(i, i + 25);
      for (let round = 0; pending && pending.length > 0; round++) {
        if (round > 0) await pause(Math.min(2_000, 25 * 2 ** round));
        const result = await this.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.table]: pending as never } }),
        );
        pending = result.UnprocessedItems?.[this.table] as Record<string, unknown>[] | undefined;
      }
    }
  }

  /**
   * The caller's sessions having every term, newest first, from ONE term's postings with the other
   * terms and the filters checked inside the items. A term's postings are the union of its
   * partitions (`query.partitions`: a word's own, those of the phrases containing it and of the
   * verdict or type term naming it), read in parallel and merged by sort key.
   *
   * Which term's postings are read matters (a common term means reading many postings to find a few
   * matches), and term frequencies are not stored. So a first page of a multi-term query reads the
   * first `limit + 1` postings of every term in parallel: a term whose postings all fit in that read
   * answers the query on the spot (every match is among them). Otherwise the first term (the
   * domain's rarest-kind-first order) drives, or a term of the same kind read from one partition
   * (a word no phrase contains, so likely rarer than the engine's template words), continuing from
   * its first read. Later pages keep the driving term, which the position names. At most
   * MAX_EVALUATED_PER_SEARCH postings are examined per call; a page may then be short but carries a
   * position.
   */
  async search(query: SearchIndexQuery): Promise<SearchIndexPage> {
    if (query.terms.length === 0) return { hits: [] };
    // The open postings first, then the term postings: a session's end writes its term postings
    // before it deletes its open posting, so a session that ends between the reads is in the second
    // (read in parallel, the term read could come before the end and the open read after: not found).
    const open = await this.openPostings(query);
    const page = await this.searchPostings(query);
    // Each read is complete down to where it stopped (the term postings at `page.next`, the open
    // read at its last evaluated key, after MAX_OPEN_READ items): the merge is complete down to the
    // newer of the two. Hits below it are left to the next page, which reads both from there again.
    const end = page.next?.sk;
    const floor = end === undefined || (open.last !== undefined && open.last > end) ? open.last : end;
    // Running sessions in this page's range (newer than where it ends), not already among its hits.
    const listed = new Set(page.hits.map((hit) => hit.session_id));
    const running = open.hits.filter(
      (entry) => !listed.has(entry.session_id) && (end === undefined || postingSk(entry) > end),
    );
    if (running.length === 0 && floor === end) return page;
    const hits = [...page.hits, ...running]
      .filter((hit) => floor === undefined || postingSk(hit) >= floor)
      .sort(newestFirst);
    const driving = page.next?.driving ?? query.after?.driving ?? drivingTerm(query);
    if (hits.length > query.limit) {
      const shown = hits.slice(0, query.limit);
      return { hits: shown, next: { driving, sk: postingSk(shown.at(-1) as SearchEntry) } };
    }
    return floor === undefined ? { hits } : { hits, next: { driving, sk: floor } };
  }

  /**
   * The caller's running sessions having every term, older than the query's position, from one read
   * of at most MAX_OPEN_READ open postings, newest first; `last`: the posting sort key it stopped
   * at when the caller's open partition goes on below it (the older ones are read from there).
   */
  private async openPostings(query: SearchIndexQuery): Promise<{ hits: SearchEntry[]; last?: string }> {
    const names: Record<string, string> = { ...TERM_NAMES };
    const values: Record<string, unknown> = { ':pk': openPk(query.ownerKeyId) };
    const filters = [
      ...query.terms.map((term, i) => hasTerm(values, term, i)),
      ...fieldFilters(query, names, values),
    ];
    if (query.after) values[':after'] = query.after.sk;
    const result = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: query.after ? 'pk = :pk AND sk < :after' : 'pk = :pk',
        FilterExpression: filters.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: MAX_OPEN_READ,
      }),
    );
    const hits = (result.Items ?? []).map(entryFromItem);
    const last = result.LastEvaluatedKey?.sk;
    return last === undefined ? { hits } : { hits, last: String(last) };
  }

  private async searchPostings(query: SearchIndexQuery): Promise<SearchIndexPage> {
    if (query.after) return this.continueSearch(query, query.after.driving, query.after.sk);
    const driving = drivingTerm(query);
    if (query.terms.length === 1) return this.continueSearch(query, driving, undefined);

    const probes = await Promise.all(
      query.terms.map((term) => this.readTerm(query, term, undefined, query.limit + 1)),
    );
    const complete = probes.findIndex((probe) => probe.next === undefined);
    if (complete >= 0) {
      const probe = probes[complete]!;
      return this.pageOf(query, query.terms[complete] as string, probe.items, undefined);
    }
    const first = probes[query.terms.indexOf(driving)]!;
    if (first.items.length > query.limit) return this.pageOf(query, driving, first.items, undefined);
    return this.continueSearch(query, driving, first.next, first.items, first.evaluated);
  }

  private pageOf(query: SearchIndexQuery, driving: string, hits: Item[], next: string | undefined) {
    if (hits.length > query.limit) {
      const page = hits.slice(0, query.limit);
      return { hits: page.map(entryFromItem), next: { driving, sk: String(page.at(-1)?.sk) } };
    }
    return next
      ? { hits: hits.map(entryFromItem), next: { driving, sk: next } }
      : { hits: hits.map(entryFromItem) };
  }

  private async continueSearch(
    query: SearchIndexQuery,
    driving: string,
    before: string | undefined,
    found: Item[] = [],
    alreadyEvaluated = 0,
  ): Promise<SearchIndexPage> {
    const hits = [...found];
    let evaluated = alreadyEvaluated;
    let next = before;
    const filtered = query.terms.length > 1 || !!query.statuses?.length || !!query.verdicts?.length;
    const pageSize = Math.min(500, filtered ? Math.max(100, query.limit + 1) : query.limit + 1);
    for (;;) {
      const result = await this.readTerm(query, driving, next, pageSize);
      evaluated += result.evaluated;
      hits.push(...result.items);
      next = result.next;
      if (hits.length > query.limit || !next || evaluated >= MAX_EVALUATED_PER_SEARCH) {
        return this.pageOf(query, driving, hits, next);
      }
    }
  }

  /**
   * Every session of the tenant (any owner), newest first, having all of `terms`: one Query on the
   * tenant partition, continued until the page is full or MAX_EVALUATED_PER_SEARCH items were read.
   */
  async listTenant(query: TenantListQuery): Promise<{ hits: SearchEntry[]; next?: string }> {
    const values: Record<string, unknown> = { ':pk': TENANT_PK };
    const filters = query.terms.map((term, i) => hasTerm(values, term, i));
    const names: Record<string, string> = filters.length ? { ...TERM_NAMES } : {};
    if (query.ownerKeyId) {
      values[':owner'] = query.ownerKeyId;
      names['#owner'] = 'owner_key_id';
      filters.push('#owner = :owner');
    }
    if (query.since) values[':since'] = query.since;
    const hits: Item[] = [];
    let evaluated = 0;
    let startKey: Record<string, unknown> | undefined = query.after
      ? { pk: TENANT_PK, sk: query.after }
      : undefined;
    for (;;) {
      const result = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: query.since ? 'pk = :pk AND sk >= :since' : 'pk = :pk',
          ...(filters.length
            ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names }
            : {}),
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: filters.length ? Math.min(500, Math.max(100, query.limit + 1)) : query.limit + 1,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      evaluated += result.ScannedCount ?? 0;
      hits.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
      if (hits.length > query.limit) {
        const page = hits.slice(0, query.limit);
        return { hits: page.map(entryFromItem), next: String(page.at(-1)?.sk) };
      }
      if (!startKey) return { hits: hits.map(entryFromItem) };
      if (evaluated >= MAX_EVALUATED_PER_SEARCH) {
        return { hits: hits.map(entryFromItem), next: String(startKey.sk) };
      }
    }
  }

  /**
   * The postings of `term` older than `before`, newest first, the other terms and the filters
   * checked in the items: one Query of up to `limit` items per partition of the term, merged by sort
   * key with each session once. A partition that stopped early has read down to its last key only,
   * so the merge is complete down to the newest such key: items older than it are dropped (the next
   * read, from `next`, reads them again) and `next` is that key; absent when every partition was
   * read to its end.
   */
  private async readTerm(
    query: SearchIndexQuery,
    term: string,
    before: string | undefined,
    limit: number,
  ): Promise<{ items: Item[]; next: string | undefined; evaluated: number }> {
    const reads = await Promise.all(
      partitionsOf(query, term).map((partition) =>
        this.queryPartition(query, term, partition, before, limit),
      ),
    );
    let next: string | undefined;
    for (const read of reads) {
      if (read.lastKey !== undefined && (next === undefined || read.lastKey > next)) next = read.lastKey;
    }
    const bySortKey = new Map<string, Item>();
    for (const item of reads.flatMap((read) => read.items)) {
      const sk = String(item.sk);
      if (next === undefined || sk >= next) bySortKey.set(sk, item);
    }
    const items = [...bySortKey.entries()]
      .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
      .map(([, item]) => item);
    return { items, next, evaluated: reads.reduce((sum, read) => sum + read.evaluated, 0) };
  }

  /** One Query on one partition of `term`'s postings, newest first, below `before`. */
  private async queryPartition(
    query: SearchIndexQuery,
    term: string,
    partition: string,
    before: string | undefined,
    limit: number,
  ): Promise<{ items: Item[]; lastKey: string | undefined; evaluated: number }> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':pk': termPk(query.ownerKeyId, partition) };
    if (before !== undefined) values[':before'] = before;
    const filters: string[] = [];
    // In a partition that stands in for the term (a phrase's, or a verdict's or type's), the term
    // itself is checked too: a phrase posting always has it, a verdict or type posting may not.
    query.terms
      .filter((other) => other !== term || partition !== term)
      .forEach((other, i) => {
        Object.assign(names, TERM_NAMES);
        filters.push(hasTerm(values, other, i));
      });
    filters.push(...fieldFilters(query, names, values));
    const result = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: before === undefined ? 'pk = :pk' : 'pk = :pk AND sk < :before',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return {
      items: result.Items ?? [],
      lastKey: result.LastEvaluatedKey === undefined ? undefined : String(result.LastEvaluatedKey.sk),
      evaluated: result.ScannedCount ?? 0,
    };
  }
}

/** The partitions whose postings together are those of `term`. */
function partitionsOf(query: SearchIndexQuery, term: string): readonly string[] {
  return query.partitions?.[term] ?? [term];
}

/**
 * The term a query's postings are read by: the first (rarest kind), or the first term of that kind
 * with a single partition.
 */
function drivingTerm(query: SearchIndexQuery): string {
  const first = query.terms[0] as string;
  const kind = first.slice(0, first.indexOf(':') + 1);
  return query.terms.find((term) => term.startsWith(kind) && partitionsOf(query, term).length === 1) ?? first;
}

/** A cursor position must look like a posting sort key (`<created_at>#<session_id>`). */
export function isPostingSortKey(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z#[A-Za-z0-9_-]{1,128}$/.test(value);
}

export function searchIndexRepositoryFromConfig(
  cfg: Config,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
) {
  return new SearchIndexRepository(doc, tableName(cfg, 'sessions'));
}
