import { config } from '../config';
import fullDocument from './generated/openapi.json';
import pluginDocument from './generated/plugin-openapi.json';

/**
 * The OpenAPI documents as /openapi.json and /plugin/openapi.json serve them. They are generated from
 * the route table ahead of time (`npm run openapi:documents`, scripts/openapi-documents.ts; a unit test
 * fails when the committed files are out of date), because the only part that differs between
 * deployments is the server URL: building them at cold start meant constructing every zod schema of
 * the API plus zod-to-openapi in two functions that need neither. esbuild inlines the JSON files;
 * each function keeps only the document it serves.
 */
export function publishedFullOpenApiDocument() {
  return withServerUrl(fullDocument);
}

export function publishedPluginOpenApiDocument() {
  return withServerUrl(pluginDocument);
}

/** The server entry keeps its place among the document's keys, so the served bytes match the generator's. */
function withServerUrl<D extends { servers: unknown }>(document: D): D {
  return { ...document, servers: [{ url: config().SIS_PUBLIC_URL }] };
}
