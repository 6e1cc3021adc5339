import { perConfiguration } from '../../config';
import type { Entity } from '../../domain/core/entity';
import { InvalidCursorError } from '../../domain/core/errors';
import type { Caller } from '../../domain/keys/scopes';
import { partitionsFor } from '../../domain/search/search-phrases';
import { slug, termsForQuery } from '../../domain/search/search-terms';
import { isPostingSortKey } from '../../store/search-index/keys';
import type { SearchEntry } from '../../store/search-index/records';
import { SearchRepository } from '../../store/search-index/search-repository';
import { TenantListRepository } from '../../store/search-index/tenant-list-repository';
import { onSessionsTable } from '../../store/sessions-table';
import * as z from '../../zod';
import { deploymentCursorCodec } from '../auth/cursor-secrets';

/**
 * Search Investigations: the caller's own sessions that match every term of `q` (domain
 * `termsForQuery`, which orders terms rarest kind first), newest first. The owner is the partition
 * of the index, so another key's sessions are never read, let alone returned; the cursor is bound
 * to the key, the query and the filters.
 */
export interface SearchInput {
  q: string;
  status?: string | undefined;
  verdict?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export interface SearchResultView {
  session_id: string;
  status: string;
  entity: Entity;
  risk_score: number | null;
  summary: string | null;
  verdict: string | null;
  persona: string;
  created_at: string;
}

export interface SearchResult {
  results: SearchResultView[];
  next_cursor: string | null;
}

const position = /* @__PURE__ */ (() =>
  z.object({
    d: z.number().check(z.int(), z.gte(0), z.lte(15)),
    after: z.string().check(z.refine(isPostingSortKey)),
  }))();

function view(entry: SearchEntry): SearchResultView {
  return {
    session_id: entry.session_id,
    status: entry.status,
    entity: entry.entity,
    risk_score: entry.risk_score ?? null,
    summary: entry.summary ?? null,
    verdict: entry.verdict ?? null,
    persona: entry.persona,
    created_at: entry.created_at,
  };
}

export async function searchInvestigations(
  index: SearchRepository,
  caller: Caller,
  input: SearchInput,
): Promise<SearchResult> {
  const { terms } = termsForQuery(input.q);
  const binding = {
    op: 'searchInvestigations',
    key: caller.keyId,
    terms,
    status: input.status,
    verdict: input.verdict,
  };
  const decoded = input.cursor
    ? (await deploymentCursorCodec()).decode(input.cursor, binding, position)
    : undefined;
  const driving = decoded ? terms[decoded.d] : undefined;
  if (decoded && !driving) throw new InvalidCursorError();
  const after = decoded && driving ? { driving, sk: decoded.after } : undefined;
  const page = await index.search({
    ownerKeyId: caller.keyId,
    terms,
    partitions: Object.fromEntries(terms.map((term) => [term, partitionsFor(term)])),
    statuses: input.status ? [input.status] : undefined,
    verdicts: input.verdict ? [input.verdict] : undefined,
    limit: input.limit,
    after,
  });
  return {
    results: page.hits.map(view),
    next_cursor: page.next
      ? (await deploymentCursorCodec()).encode(
          { d: terms.indexOf(page.next.driving), after: page.next.sk },
          binding,
        )
      : null,
  };
}

export interface ListSessionsInput {
  status?: string | undefined;
  verdict?: string | undefined;
  entity?: string | undefined;
  since?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

const listPosition = /* @__PURE__ */ (() =>
  z.object({ after: z.string().check(z.refine(isPostingSortKey)) }))();

/**
 * The caller's own sessions, newest first (running ones included): the tenant listing read with the
 * owner as a filter and the filters as terms (status, verdict, the entity's terms as in a search),
 * from `since` on as a key condition. The cursor is bound to the key and the filters.
 */
export async function listOwnSessions(
  index: TenantListRepository,
  caller: Caller,
  input: ListSessionsInput,
): Promise<{ sessions: SearchResultView[]; next_cursor: string | null }> {
  const terms = [
    ...(input.entity ? termsForQuery(input.entity).terms : []),
    ...(input.status ? [`s:${slug(input.status)}`] : []),
    ...(input.verdict ? [`vd:${slug(input.verdict)}`] : []),
  ];
  const since = input.since ? new Date(input.since).toISOString() : undefined;
  const binding = { op: 'listSessions', key: caller.keyId, terms, since };
  const after = input.cursor
    ? (await deploymentCursorCodec()).decode(input.cursor, binding, listPosition).after
    : undefined;
  const page = await index.list({ terms, limit: input.limit, after, ownerKeyId: caller.keyId, since });
  return {
    sessions: page.hits.map(view),
    next_cursor: page.next ? (await deploymentCursorCodec()).encode({ after: page.next }, binding) : null,
  };
}

/** The search index of this process (one per cold start; rebuilt when tests reset the config). */
export const searchIndex: () => SearchRepository = /* @__PURE__ */ perConfiguration((cfg) =>
  onSessionsTable(cfg, SearchRepository),
);

/** The tenant listing of this process, read by the owner's session list (one per cold start). */
export const ownSessionsIndex: () => TenantListRepository = /* @__PURE__ */ perConfiguration((cfg) =>
  onSessionsTable(cfg, TenantListRepository),
);
