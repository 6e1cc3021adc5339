import { termsForSession } from '../domain/search-terms';
import { logger } from '../observability';
import type { SearchIndexRepository } from '../store/search-index-repository';
import type { SessionRecord } from '../store/sessions-repository';
import { reportOf, subjectOf } from './session-context';

/**
 * Keeps a session's search postings in step with its lifecycle: every service that changes a
 * session's status or report (start, cancel, the workflow steps, the stale-session sweep) re-indexes
 * it here. Querying the index is search.ts.
 */
export interface SearchIndexing {
  search: SearchIndexRepository;
}

/** The session's search entry and index terms, from its current status and report. */
function searchable(session: SessionRecord) {
  const report = reportOf(session);
  const entity = subjectOf(session);
  const entry = {
    session_id: session.session_id,
    owner_key_id: session.owner_key_id,
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

/** Re-indexes the session for search with its current status and report. */
export async function indexForSearch(ctx: SearchIndexing, session: SessionRecord): Promise<void> {
  const { entry, terms } = searchable(session);
  await ctx.search.indexSession(entry, terms);
}

/**
 * Makes a session that was just created findable while it runs (one open posting and its line in
 * the tenant list, instead of a posting per term that its end would rewrite); quiet like the
 * re-index below.
 */
export async function indexStartedForSearchQuietly(
  ctx: SearchIndexing,
  session: SessionRecord,
): Promise<void> {
  try {
    const { entry, terms } = searchable(session);
    await ctx.search.indexOpenSession(entry, terms);
  } catch (error) {
    logger.warn('search index update failed', { session_id: session.session_id, error: error as Error });
  }
}

/**
 * Search is a secondary view: a failure to update it must not fail the lifecycle change that
 * triggered it (the next change re-indexes the session).
 */
export async function indexForSearchQuietly(ctx: SearchIndexing, session: SessionRecord): Promise<void> {
  try {
    await indexForSearch(ctx, session);
  } catch (error) {
    logger.warn('search index update failed', { session_id: session.session_id, error: error as Error });
  }
}
