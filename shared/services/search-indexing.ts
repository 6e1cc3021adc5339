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

/** Re-indexes the session for search with its current status and report. */
export async function indexForSearch(ctx: SearchIndexing, session: SessionRecord): Promise<void> {
  const report = reportOf(session);
  const entity = subjectOf(session);
  await ctx.search.indexSession(
    {
      session_id: session.session_id,
      owner_key_id: session.owner_key_id,
      status: session.status,
      entity,
      persona: session.persona,
      created_at: session.created_at,
      risk_score: report?.risk_score ?? null,
      verdict: report?.verdict ?? null,
      summary: report?.summary ?? null,
    },
    termsForSession({
      entity,
      status: session.status,
      verdict: report?.verdict ?? null,
      persona: session.persona,
      summary: report?.summary ?? null,
      findings: report?.findings ?? [],
      entities: (report?.entities ?? []).filter((e) => e.role === 'related'),
    }),
  );
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
