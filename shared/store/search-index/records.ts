import type { Entity } from '../../domain/core/entity';
import type { StartChannel } from '../../domain/keys/scopes';

/** A session as the search index lists it (the fields every posting carries). */
export interface SearchEntry {
  session_id: string;
  owner_key_id: string;
  /** The console username of the person who started it (tenant and open postings only). */
  owner_name?: string;
  /** The endpoint a key started it through when not the REST API (tenant and open postings only). */
  started_via?: StartChannel;
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
