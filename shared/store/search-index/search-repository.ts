import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expiredItem } from '../retention/retention-ttl';
import { openPk, postingSk, termPk } from './keys';
import {
  entryFromItem,
  fieldFilters,
  hasTerm,
  type Item,
  MAX_EVALUATED_PER_SEARCH,
  TERM_NAMES,
} from './postings';
import type { SearchEntry, SearchIndexPage, SearchIndexQuery } from './records';

/** A key's search over its own sessions: its term postings merged with its open postings (keys.ts). */

/** Open postings one search page reads: the caller's running sessions, newest first (more: next page). */
const MAX_OPEN_READ = 100;

/** Sort keys, newest first. */
const newestFirst = (a: SearchEntry, b: SearchEntry) => {
  const [x, y] = [postingSk(a), postingSk(b)];
  return x < y ? 1 : x > y ? -1 : 0;
};

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

export class SearchRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

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
    const hits = (result.Items ?? []).filter((item) => !expiredItem(item)).map(entryFromItem);
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
      // A session past its retention is not found, though DynamoDB may not have deleted it yet.
      items: (result.Items ?? []).filter((item) => !expiredItem(item)),
      lastKey: result.LastEvaluatedKey === undefined ? undefined : String(result.LastEvaluatedKey.sk),
      evaluated: result.ScannedCount ?? 0,
    };
  }
}
