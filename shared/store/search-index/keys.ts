import { createHash } from 'node:crypto';

/**
 * The investigation search index: an inverted index in the sessions table. This module spells its
 * keys; indexing-repository.ts writes it, search-repository.ts and tenant-list-repository.ts read it.
 *
 * - posting   pk `TERM#<ownerKeyId>#<term>`, sk `<created_at>#<session_id>`: one item per posting
 *             term of a session, carrying the result fields and the session's whole (findable) term
 *             set, so a query for several terms is ONE Query on one term's partitions (newest first)
 *             with the other terms checked inside the items (`contains(th, :h)`). The owner is part
 *             of the partition key: a key can only ever read postings of its own sessions.
 *             Posting terms (domain `postingTermsFor`, shared/domain/search-phrases.ts) are the
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
export const DOC_SK = 'TERMS';
export const TENANT_PK = 'TENANT#SESSIONS';
export const termPk = (owner: string, term: string) => `TERM#${owner}#${term}`;
export const openPk = (owner: string) => `SEARCHOPEN#${owner}`;
export const docPk = (sessionId: string) => `SEARCHDOC#${sessionId}`;
export const postingSk = (entry: { created_at: string; session_id: string }) =>
  `${entry.created_at}#${entry.session_id}`;

/** Postings per session: bounded so a pathological report cannot turn one index into thousands of writes. */
export const MAX_TERMS_PER_SESSION = 200;
export const MAX_TERM_LENGTH = 128;
/**
 * Summary kept on each posting (the result list shows a snippet, the report route the whole text):
 * 270 characters, so the tenant posting of a session with 60 terms still fits one write unit with
 * its TTL (shared/store/retention/retention-ttl.ts; 300 before retention).
 */
export const POSTING_SUMMARY_LENGTH = 270;

/** The hash a term is stored and matched under (see the posting layout above). */
export function termHash(term: string): string {
  return createHash('sha256').update(term).digest('base64url').slice(0, 8);
}

/** A cursor position must look like a posting sort key (`<created_at>#<session_id>`). */
export function isPostingSortKey(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z#[A-Za-z0-9_-]{1,128}$/.test(value);
}
