import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseConfig } from '../../shared/config';
import { createDocumentClient } from '../../shared/store/dynamo-client';
import { type SearchEntry, SearchIndexRepository } from '../../shared/store/search-index-repository';
import { createIsolatedTables } from './dynamodb';

/** A search index on tables of its own in DynamoDB Local, with the client and table it uses. */
export async function isolatedSearchIndex(): Promise<{
  index: SearchIndexRepository;
  doc: DynamoDBDocumentClient;
  sessionsTable: string;
}> {
  const tables = await createIsolatedTables();
  const doc = createDocumentClient(parseConfig({ ...tables.env }));
  return {
    index: new SearchIndexRepository(doc, tables.names.sessions),
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
