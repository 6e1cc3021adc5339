import { termsForSession } from '../../domain/search/search-terms';
import { logger } from '../../observability';
import type { SearchIndexingRepository } from '../../store/search-index/indexing-repository';
import type { SessionRecord } from '../../store/sessions/records';

/**
 * Keeps a session's search postings in step with its lifecycle: every service that changes a
 * session's status or report (start, cancel, the workflow steps, the stale-session sweep) re-indexes
 * it here. Querying the index is search.ts.
 */
export interface SearchIndexing {
  search: SearchIndexingRepository;
}

/** The session's search entry and index terms, from its current status and report. */
function searchable(session: SessionRecord) {
  const report = session.report;
  const entity = session.entity;
  const entry = {
    session_id: session.session_id,
    owner_key_id: session.owner_key_id,
    ...(session.owner_name ? { owner_name: session.owner_name } : {}),
    ...(session.started_via ? { started_via: session.started_via } : {}),
    status: session.status,
    entity,
    persona: session.persona,
    created_at: session.created_at,
    risk_score: report?.risk_score ?? null,
    verdict: report?.verdict ?? null,
    summary: report?.summary ?? null,
  };
  const terms = termsForSession({
    entity,
    status: session.status,
    verdict: report?.verdict ?? null,
    persona: session.persona,
    summary: report?.summary ?? null,
    findings: report?.findings ?? [],
    entities: (report?.entities ?? []).filter((e) => e.role === 'related'),
  });
  return { entry, terms };
}

/** Which terms a session is posted under, given its findable terms. */
export type PostingTerms = (findable: readonly string[]) => readonly string[];

/** A posting per findable term. */
const eachTerm: PostingTerms = (findable) => findable;

/**
 * Re-indexes the session for search with its current status and report. Only the completing step
 * passes phrase postings (domain `postingTermsFor`): a session ended without a report has no engine
 * text for a phrase to stand for, and the functions that end it that way (start, cancel, the sweep)
 * then do not carry the phrase vocabulary.
 */
export async function indexForSearch(
  ctx: SearchIndexing,
  session: SessionRecord,
  postingTerms: PostingTerms = eachTerm,
): Promise<void> {
  const { entry, terms } = searchable(session);
  await ctx.search.indexSession(entry, terms, postingTerms(terms));
}

/**
 * Search is a secondary view: a failure to update it must not fail the lifecycle change that
 * triggered it (the next change re-indexes the session).
 */
async function quietly(session: SessionRecord, update: () => Promise<void>): Promise<void> {
  try {
    await update();
  } catch (error) {
    logger.warn('search index update failed', { session_id: session.session_id, error: error as Error });
  }
}

/**
 * Makes a session that was just created findable while it runs (one open posting and its line in
 * the tenant list, instead of a posting per term that its end would rewrite), quietly.
 */
export async function indexStartedForSearchQuietly(
  ctx: SearchIndexing,
  session: SessionRecord,
): Promise<void> {
  await quietly(session, () => {
    const { entry, terms } = searchable(session);
    return ctx.search.indexOpenSession(entry, terms);
  });
}

/** indexStartedForSearchQuietly for sessions started together (a batch), in shared writes. */
export async function indexBatchStartedForSearchQuietly(
  ctx: SearchIndexing,
  sessions: readonly SessionRecord[],
): Promise<void> {
  try {
    await ctx.search.indexOpenSessions(sessions.map(searchable));
  } catch (error) {
    logger.warn('search index update failed', { sessions: sessions.length, error: error as Error });
  }
}

/** Re-indexes the session for search, quietly. */
export async function indexForSearchQuietly(ctx: SearchIndexing, session: SessionRecord): Promise<void> {
  await quietly(session, () => indexForSearch(ctx, session));
}
