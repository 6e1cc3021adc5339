import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import { cursorSecretRepositoryFromConfig } from '../../../shared/store/cursor-secret-repository';
import { createDocumentClient, documentClientFor } from '../../../shared/store/dynamo-client';
import { SearchIndexingRepository } from '../../../shared/store/search-index/indexing-repository';
import { onSessionsTable } from '../../../shared/store/sessions-table';

const env = { SIS_DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', AWS_REGION: 'us-east-1' };

describe('documentClientFor', () => {
  it('gives every repository of one configuration the same client, and another configuration its own', () => {
    const cfg = parseConfig(env);
    expect(documentClientFor(cfg)).toBe(documentClientFor(cfg));
    expect(documentClientFor(parseConfig(env))).not.toBe(documentClientFor(cfg));
    expect(createDocumentClient(cfg)).not.toBe(documentClientFor(cfg));
  });

  it('is what the repositories of a paging function use by default (one connection pool per cold start)', () => {
    const cfg = parseConfig(env);
    const docOf = (repository: object) => (repository as { doc: unknown }).doc;
    expect(docOf(cursorSecretRepositoryFromConfig(cfg))).toBe(documentClientFor(cfg));
    expect(docOf(onSessionsTable(cfg, SearchIndexingRepository))).toBe(documentClientFor(cfg));
  });
});
