import type { Entity } from '../../domain/core/entity';
import { sessionTtl } from '../retention/retention-ttl';
import {
  MAX_TERM_LENGTH,
  MAX_TERMS_PER_SESSION,
  POSTING_SUMMARY_LENGTH,
  postingSk,
  TENANT_PK,
  termHash,
  termPk,
} from './keys';
import type { SearchEntry, SearchIndexQuery } from './records';

/** The search index's items (keys.ts): what a posting holds, and the filters that read it. */
export type Item = Record<string, unknown>;

/** Items one search may examine before it answers with what it has and a cursor. */
export const MAX_EVALUATED_PER_SEARCH = 2_000;

export const TERM_NAMES = { '#th': 'th', '#terms': 'terms' };

/** A filter for postings having `term`: its hash, or the term itself on a posting of the older layout. */
export function hasTerm(values: Record<string, unknown>, term: string, i: number): string {
  values[`:h${i}`] = termHash(term);
  values[`:t${i}`] = term;
  return `(contains(#th, :h${i}) OR contains(#terms, :t${i}))`;
}

/** The query's status and verdict filters (`IN` lists), names and values added to the maps given. */
export function fieldFilters(
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

export function entryFromItem(item: Item): SearchEntry {
  const entity = item.entity as Entity;
  const sk = String(item.sk);
  const cut = sk.indexOf('#');
  const pk = String(item.pk);
  return {
    session_id: String(item.session_id ?? sk.slice(cut + 1)),
    // TERM#<owner>#<term>; the tenant posting names its owner.
    owner_key_id: String(item.owner_key_id ?? pk.slice('TERM#'.length, pk.indexOf('#', 'TERM#'.length))),
    ...(typeof item.owner_name === 'string' ? { owner_name: item.owner_name } : {}),
    ...(item.started_via === 'mcp' ? { started_via: item.started_via } : {}),
    status: String(item.status),
    entity: { type: entity.type, value: entity.value },
    persona: String(item.persona),
    created_at: String(item.created_at ?? sk.slice(0, cut)),
    risk_score: typeof item.risk_score === 'number' ? item.risk_score : null,
    verdict: typeof item.verdict === 'string' ? item.verdict : null,
    summary: typeof item.summary === 'string' ? item.summary : null,
  };
}

/**
 * The result fields and term hashes every posting of a session carries. Its ID and creation time are
 * its sort key (`entryFromItem` reads them back), so they are not repeated as attributes: 34 bytes
 * less per posting keeps the tenant posting of a session with all 60 terms and a 300-character
 * summary (kept to 270) under 1 KB with its TTL (one write unit, not two) too.
 */
function postingFields(entry: SearchEntry, terms: readonly string[]) {
  return {
    status: entry.status,
    entity: { type: entry.entity.type, value: entry.entity.value },
    persona: entry.persona,
    ...(typeof entry.risk_score === 'number' ? { risk_score: entry.risk_score } : {}),
    ...(entry.verdict ? { verdict: entry.verdict } : {}),
    ...(entry.summary ? { summary: shorten(entry.summary, POSTING_SUMMARY_LENGTH) } : {}),
    th: new Set(terms.map(termHash)),
    // Expires with its session (shared/store/retention/retention-ttl.ts).
    ...sessionTtl(entry.session_id),
  };
}

/**
 * The session's posting under `pk` naming its owner: in the tenant partition (the console's list)
 * or in the owner's open partition (a running session).
 */
export function ownedPosting(pk: string, entry: SearchEntry, terms: readonly string[]): Item {
  return {
    pk,
    sk: postingSk(entry),
    owner_key_id: entry.owner_key_id,
    ...(entry.owner_name ? { owner_name: entry.owner_name } : {}),
    ...(entry.started_via ? { started_via: entry.started_via } : {}),
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
export function storedTerms(terms: readonly string[]): string[] {
  return [...new Set(terms.filter((t) => t.length > 0 && t.length <= MAX_TERM_LENGTH))].slice(
    0,
    MAX_TERMS_PER_SESSION,
  );
}
