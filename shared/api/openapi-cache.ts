import { config } from '../config';
import { buildOpenApiDocument, type OpenApiView } from './openapi';
import { ROUTES } from './routes';

const documents = new Map<OpenApiView, ReturnType<typeof buildOpenApiDocument>>();

/** Generated once per cold start: the route table cannot change while a function runs. */
export function openApiDocumentFor(view: OpenApiView) {
  let document = documents.get(view);
  if (!document) {
    document = buildOpenApiDocument(ROUTES, { serverUrl: config().SIS_PUBLIC_URL, view });
    documents.set(view, document);
  }
  return document;
}
