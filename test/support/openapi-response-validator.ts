import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { buildConsoleOpenApiDocument, buildOpenApiDocument } from '../../shared/api/openapi';
import { PROXY_PREFIX, PUBLIC_PREFIX } from '../../shared/api/route-types';
import { ROUTES } from '../../shared/api/routes';

/**
 * Checks an HTTP answer against the OpenAPI document the service publishes, so the document cannot
 * drift from what the handlers really return. Every call through `startTestService().call()` goes
 * through it; a mismatch fails the test that made the call.
 *
 * The document is OpenAPI 3.0 (Security Copilot accepts nothing newer), so its schemas are brought
 * to the JSON Schema dialect Ajv validates: `$ref`s point into one registered components schema,
 * boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, and `nullable` is Ajv's own keyword.
 */

export interface ObservedResponse {
  method: string;
  /** Request path as called, with or without a query string. */
  path: string;
  status: number;
  contentType?: string;
  /** The parsed JSON body (ignored when the content type is not JSON). */
  body: unknown;
}

export type ResponseCheck = { ok: true; operationId?: string } | { ok: false; message: string };

type Json = Record<string, unknown>;
type OpenApiDocument = { paths: Record<string, Record<string, unknown>>; components?: { schemas?: Json } };

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const COMPONENTS_ID = 'https://openapi.invalid/components';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * OpenAPI 3.0 schema object → JSON Schema (draft-07) as Ajv reads it. With `closed`, an object
 * schema that lists its properties admits no others: a field the handler returns but the document
 * does not describe is drift too (a model cannot use what it was never told about).
 */
function toJsonSchema(node: unknown, closed: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => toJsonSchema(item, closed));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace('#/components/schemas/', `${COMPONENTS_ID}#/definitions/`);
    } else if (key === 'example' || key.startsWith('x-')) {
      // annotations only
    } else if (key === 'properties' && value && typeof value === 'object') {
      // property names are not schemas: keep them all, convert their schemas
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, toJsonSchema(schema, closed)]),
      );
    } else {
      out[key] = toJsonSchema(value, closed);
    }
  }
  if (closed && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) {
      delete out[flag];
    }
  }
  return out;
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType ?? '');
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => {
      const where = e.instancePath || '(body)';
      const extra =
        e.keyword === 'additionalProperties'
          ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
          : e.keyword === 'enum'
            ? ` (${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)})`
            : '';
      return `${where} ${e.message}${extra}`;
    })
    .join('; ');
}

function preview(body: unknown): string {
  const text = JSON.stringify(body) ?? String(body);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

const MCP_ENDPOINT = '/api/v1/mcp';

function isMcpEndpoint(path: string): boolean {
  return (path.split('?')[0] ?? path) === MCP_ENDPOINT;
}

function isJsonRpcError(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { jsonrpc, error } = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
  return jsonrpc === '2.0' && typeof error?.code === 'number' && typeof error.message === 'string';
}

export class OpenApiResponseValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; params: number }[];

  private readonly closed: boolean;

  constructor(
    private readonly document: OpenApiDocument,
    options: { allowUndocumentedFields?: boolean } = {},
  ) {
    this.closed = !options.allowUndocumentedFields;
    this.ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(this.ajv);
    const schemas = document.components?.schemas ?? {};
    this.ajv.addSchema({
      $id: COMPONENTS_ID,
      definitions: Object.fromEntries(
        Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, this.closed)]),
      ),
    });
    this.templates = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(
          `^${template
            .split(/\{[^}]+\}/)
            .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
            .join('[^/]+')}$`,
        ),
        params: (template.match(/\{/g) ?? []).length,
      }))
      // A literal segment wins over a template parameter (/keys/search before /keys/{key_id}).
      .sort((a, b) => a.params - b.params);
  }

  /** The operation serving `method path`, following the frontend-proxy prefix as the gateway does. */
  operationFor(method: string, path: string): Operation | undefined {
    let pathname = path.split('?')[0] ?? path;
    if (pathname.startsWith(`${PROXY_PREFIX}${PUBLIC_PREFIX}`))
      pathname = pathname.slice(PROXY_PREFIX.length);
    const verb = method.toLowerCase();
    if (!METHODS.includes(verb)) return undefined;
    for (const { template, pattern } of this.templates) {
      if (!pattern.test(pathname)) continue;
      const operation = this.document.paths[template]?.[verb] as Operation | undefined;
      if (operation) return operation;
    }
    return undefined;
  }

  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema, this.closed) as Json);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  check(observed: ObservedResponse): ResponseCheck {
    const call = `${observed.method.toUpperCase()} ${observed.path} → ${observed.status}`;
    const operation = this.operationFor(observed.method, observed.path);
    if (!operation) {
      // Only the gateway's own errors (unknown route or method) may come from outside the document.
      if (observed.status < 400) {
        return {
          ok: false,
          message: `OpenAPI drift: ${call} succeeded but the document has no such operation`,
        };
      }
      // GET and DELETE on the MCP endpoint are no operation (shared/api/routes/mcp.ts): the endpoint
      // answers them 405 in its own protocol, a JSON-RPC error, as the Streamable HTTP transport does.
      if (observed.status === 405 && isMcpEndpoint(observed.path) && isJsonRpcError(observed.body)) {
        return { ok: true };
      }
      return this.checkSchema(
        call,
        'ErrorResponse',
        { $ref: '#/components/schemas/ErrorResponse' },
        observed,
      );
    }
    const responses = operation.responses;
    const declared =
      responses[String(observed.status)] ?? responses[`${String(observed.status)[0]}XX`] ?? responses.default;
    if (!declared) {
      return {
        ok: false,
        message: `OpenAPI drift: ${call}: status ${observed.status} is not documented for ${operation.operationId} (documented: ${Object.keys(responses).join(', ')})`,
      };
    }
    const schema = declared.content?.['application/json']?.schema;
    if (!schema) return { ok: true, operationId: operation.operationId };
    if (!isJson(observed.contentType)) {
      return {
        ok: false,
        message: `OpenAPI drift: ${call} (${operation.operationId}) is documented as JSON but came as ${observed.contentType ?? 'no content type'}`,
      };
    }
    return this.checkSchema(call, `${operation.operationId} ${observed.status}`, schema, observed, operation);
  }

  private checkSchema(
    call: string,
    key: string,
    schema: unknown,
    observed: ObservedResponse,
    operation?: Operation,
  ): ResponseCheck {
    const validate = this.validatorFor(key, schema);
    if (validate(observed.body)) return { ok: true, operationId: operation?.operationId };
    return {
      ok: false,
      message: `OpenAPI drift: ${call} (${key}) does not match the documented schema: ${describeErrors(validate.errors)}. Body: ${preview(observed.body)}`,
    };
  }

  /** Throws with every mismatch spelled out; the failing test names the call. */
  assert(observed: ObservedResponse): void {
    const result = this.check(observed);
    if (!result.ok) throw new OpenApiDriftError(result.message);
  }
}

export class OpenApiDriftError extends Error {
  override name = 'OpenApiDriftError';
}

let published: OpenApiResponseValidator | undefined;

/** The validator for the full document generated from the route table, exactly as /openapi.json serves it. */
export function publishedDocumentValidator(): OpenApiResponseValidator {
  published ??= new OpenApiResponseValidator(
    buildOpenApiDocument(ROUTES, {
      serverUrl: 'http://127.0.0.1',
      view: 'full',
    }) as unknown as OpenApiDocument,
  );
  return published;
}

let consoleDocument: OpenApiResponseValidator | undefined;

/**
 * The validator for the console's own document (never published): the source of the console's
 * generated types, so an answer that does not match it is a type the browser app is wrong about.
 */
export function consoleDocumentValidator(): OpenApiResponseValidator {
  consoleDocument ??= new OpenApiResponseValidator(
    buildConsoleOpenApiDocument(ROUTES, { serverUrl: 'http://127.0.0.1' }) as unknown as OpenApiDocument,
  );
  return consoleDocument;
}
