import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPENAPI_DOCUMENT_PATHS, openApiDocumentSource } from '../../../scripts/openapi-documents';
import { buildOpenApiDocument } from '../../../shared/api/openapi';
import {
  publishedFullOpenApiDocument,
  publishedPluginOpenApiDocument,
} from '../../../shared/api/published-openapi';
import { ROUTES } from '../../../shared/api/routes';
import { resetConfigForTests } from '../../../shared/config';

describe('shared/api/generated/*.json', () => {
  it.each(['full', 'plugin'] as const)(
    'holds the %s document the route table generates (run `npm run openapi:documents` after changing the API)',
    (view) => {
      expect(readFileSync(OPENAPI_DOCUMENT_PATHS[view], 'utf8')).toBe(openApiDocumentSource(view));
    },
  );
});

describe('the published OpenAPI documents', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  const published = { full: publishedFullOpenApiDocument, plugin: publishedPluginOpenApiDocument };

  it.each(['https://abc123.execute-api.eu-west-1.amazonaws.com/prod', 'http://127.0.0.1:4567/'])(
    'serialise byte for byte as the generator builds them for SIS_PUBLIC_URL=%s',
    (serverUrl) => {
      vi.stubEnv('SIS_PUBLIC_URL', serverUrl);
      resetConfigForTests();
      for (const view of ['full', 'plugin'] as const) {
        const generated = buildOpenApiDocument(ROUTES, { serverUrl, view });
        expect(published[view](), view).toEqual(generated);
        // Key order too: the response body is JSON.stringify of the document.
        expect(JSON.stringify(published[view]()), view).toBe(JSON.stringify(generated));
      }
    },
  );
});
