import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_DOCUMENT_PATHS, openApiDocumentSource } from '../../scripts/openapi-documents';

describe('shared/api/generated/*.json', () => {
  it.each(['full', 'plugin'] as const)(
    'holds the %s document the route table generates (run `npm run openapi:documents` after changing the API)',
    (view) => {
      expect(readFileSync(OPENAPI_DOCUMENT_PATHS[view], 'utf8')).toBe(openApiDocumentSource(view));
    },
  );
});
