import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, type OpenApiView } from '../shared/api/openapi';
import { ROUTES } from '../shared/api/routes';

/**
 * The two OpenAPI documents the service publishes, generated from the route table ahead of time and
 * committed (shared/api/generated/). The functions that serve them read these files (esbuild inlines
 * them) and only put the deployment's SIS_PUBLIC_URL in `servers`, instead of building every zod schema
 * of the API and zod-to-openapi at each cold start. `npm run openapi:documents` rewrites them; a unit
 * test fails when they are out of date.
 */

/**
 * The server URL written into the committed files: the config default (what `npm start` serves when
 * nothing sets SIS_PUBLIC_URL). The functions replace it with the deployment's own.
 */
export const GENERATED_SERVER_URL = 'http://127.0.0.1:3000';

export const OPENAPI_DOCUMENT_PATHS: Record<OpenApiView, string> = {
  full: resolve(dirname(fileURLToPath(import.meta.url)), '../shared/api/generated/openapi.json'),
  plugin: resolve(dirname(fileURLToPath(import.meta.url)), '../shared/api/generated/plugin-openapi.json'),
};

export function openApiDocumentSource(view: OpenApiView): string {
  const document = buildOpenApiDocument(ROUTES, { serverUrl: GENERATED_SERVER_URL, view });
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const view of ['full', 'plugin'] as const) {
    writeFileSync(OPENAPI_DOCUMENT_PATHS[view], openApiDocumentSource(view));
    console.log(`wrote ${OPENAPI_DOCUMENT_PATHS[view]}`);
  }
}
