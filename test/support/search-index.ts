import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../shared/config';
import { parseConfig } from '../../shared/config';
import { createDocumentClient, documentClientFor } from '../../shared/store/dynamo-client';
import { SearchIndexingRepository } from '../../shared/store/search-index/indexing-repository';
import type { SearchEntry } from '../../shared/store/search-index/records';
import { SearchRepository } from '../../shared/store/search-index/search-repository';
import { TenantListRepository } from '../../shared/store/search-index/tenant-list-repository';
import { tableName } from '../../shared/store/tables';
import { createIsolatedTables } from './dynamodb';

/**
 * The search index's repositories over one table, as the tests drive them: index sessions, then
 * search them (a key's own) or list them (the tenant's).
 */
export function searchIndexOn(doc: DynamoDBDocumentClient, table: string) {
  const indexing = new SearchIndexingRepository(doc, table);
  const search = new SearchRepository(doc, table);
  const tenant = new TenantListRepository(doc, table);
  return {
    indexSession: indexing.indexSession.bind(indexing),
    indexOpenSession: indexing.indexOpenSession.bind(indexing),
    search: search.search.bind(search),
    listTenant: tenant.list.bind(tenant),
  };
}

export type TestSearchIndex = ReturnType<typeof searchIndexOn>;

/** The search index over the configured sessions table (the local service's). */
export function configuredSearchIndex(cfg: Config): TestSearchIndex {
  return searchIndexOn(documentClientFor(cfg), tableName(cfg, 'sessions'));
}

/** A search index on tables of its own in DynamoDB Local, with the client and table it uses. */
export async function isolatedSearchIndex(): Promise<{
  index: TestSearchIndex;
  doc: DynamoDBDocumentClient;
  sessionsTable: string;
}> {
  const tables = await createIsolatedTables();
  const doc = createDocumentClient(parseConfig({ ...tables.env }));
  return {
    index: searchIndexOn(doc, tables.names.sessions),
    doc,
    sessionsTable: tables.names.sessions,
  };
}

/** A completed session's search entry on 203.0.113.66 (malicious, 80), with `extra` on top. */
export function searchEntry(
  id: string,
  owner: string,
  at: string,
  extra: Partial<SearchEntry> = {},
): SearchEntry {
  return {
    session_id: id,
    owner_key_id: owner,
    status: 'completed',
    entity: { type: 'ip', value: '203.0.113.66' },
    persona: 'SOC Analyst',
    created_at: at,
    risk_score: 80,
    verdict: 'malicious',
    summary: 'Brute force from 203.0.113.66',
    ...extra,
  };
}
