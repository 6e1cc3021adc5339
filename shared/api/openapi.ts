import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
// zod classic: zod-to-openapi reads classic schemas only. The service's schemas are zod/mini
// (shared/zod.ts); toClassic rebuilds them as classic right before generation. Nothing a Lambda
// handler imports may import this module, or the function would load classic at its cold start.
import * as z from 'zod';
import type * as core from 'zod/v4/core';
import { SERVICE_VERSION } from '../version';
import { RESPONSE_SCHEMAS, type ResponseSchemas } from './response-schemas';
import type { RouteDefinition } from './route-types';
import { isConsoleRoute } from './routes/console-twin';
import { ErrorResponse } from './schemas/common';

/**
 * The OpenAPI 3.0.1 document, generated from the route table's zod schemas (never written by hand).
 * Security Copilot's custom-plugin documentation supports OpenAPI 3.0 and 3.0.1 only, hence the V3
 * generator and the declared 3.0.1: the 3.0.2 and 3.0.3 patches only clarified wording and added no
 * keyword, so nothing in these documents needs a later 3.0.x patch. The `plugin` view holds only
 * the skills an assistant platform should see, so admin and ingest routes never reach a model.
 */
export type OpenApiView = 'full' | 'plugin';

/** The version Security Copilot documents (3.0 or 3.0.1); both documents declare it. */
export const OPENAPI_VERSION = '3.0.1';

export interface OpenApiOptions {
  serverUrl: string;
  view: OpenApiView;
  /**
   * What the route rows' response schema names resolve to; RESPONSE_SCHEMAS unless a test swaps one
   * to prove that a changed schema is caught.
   */
  responseSchemas?: ResponseSchemas;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid; error.details names each failing field.',
  401: 'The API key is missing, malformed, unknown, expired or disabled.',
  403: 'The API key lacks the required scope, or does not own the session.',
  404: 'The resource does not exist.',
  409: 'The request conflicts with the resource state.',
  413: 'The request body exceeds 1 MiB.',
  415: 'The request body must be JSON.',
  429: 'The API key exceeded its rate limit or quota; retry after the Retry-After header.',
  500: 'Internal error; the body carries a request_id to quote to the operator.',
  503: 'A dependency is temporarily unavailable; retry shortly.',
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  investigations:
    'Start, poll, cancel and read investigations of an IP address, user, host or domain; search them.',
  knowledge: 'The knowledge graph: entities seen together in incidents and investigations.',
  incidents: 'Incidents synced from SIEMs (Microsoft Sentinel, Splunk ES, Elastic Security).',
  admin: 'API key management; needs an admin key.',
  meta: 'Health and the public documents: OpenAPI, plugin manifests, logo.',
  mcp: 'The Model Context Protocol endpoint: the five skills as MCP tools for assistant platforms (docs/mcp.md).',
};

export function errorStatusesFor(route: RouteDefinition): number[] {
  const statuses = new Set<number>([500, 503, ...(route.errorStatuses ?? [])]);
  const { params, query, body } = route.request;
  if (params || query || body) statuses.add(400);
  if (body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.access.kind !== 'public') {
    statuses.add(401);
    statuses.add(403);
    statuses.add(429);
  }
  if (route.ownerOnly || params) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

function accessNote(route: RouteDefinition): string {
  switch (route.access.kind) {
    case 'public':
      return 'No API key needed.';
    case 'key':
      return 'Requires an API key; each tool checks its own scope.';
    case 'admin':
      return 'Requires an admin API key.';
    case 'scope':
      return `Requires an API key with scope \`${route.access.scope}\`${route.ownerOnly ? ' that created the session' : ''}.`;
    case 'console':
      return `Requires a console sign-in (${route.access.role}).`;
  }
}

/** The headers of a 202 that hands back work to follow (ResponseDefinition.pollHeaders). */
const POLL_HEADERS = {
  Location: {
    description: 'The URL to poll (GET, same API key) until the work has ended',
    schema: { type: 'string', format: 'uri' },
  },
  'Retry-After': {
    description: 'Seconds to wait before the next poll',
    schema: { type: 'integer', minimum: 1 },
  },
} as const;

function register(
  registry: OpenAPIRegistry,
  schemas: ClassicResponseSchemas,
  route: ClassicRoute,
  path: string,
  operationId: string,
  alias: boolean,
  securityScheme: string,
) {
  const responses: Record<
    string,
    { description: string; content?: Record<string, { schema: never }>; headers?: typeof POLL_HEADERS }
  > = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema
        ? { content: { 'application/json': { schema: schemas[response.schema] as never } } }
        : {}),
      ...(response.pollHeaders ? { headers: POLL_HEADERS } : {}),
    };
  }
  for (const status of errorStatusesFor(route)) {
    responses[String(status)] ??= {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: toClassic(ErrorResponse) as never } },
    };
  }
  registry.registerPath({
    method: route.method.toLowerCase() as 'get' | 'post' | 'delete',
    path,
    operationId,
    summary: route.summary,
    description: `${route.description}\n\n${accessNote(route)}${alias ? `\n\nSame operation as \`${route.operationId}\`.` : ''}`,
    tags: [...route.tags],
    security: route.access.kind === 'public' ? [] : [{ [securityScheme]: [] }],
    request: {
      ...(route.request.params ? { params: route.request.params } : {}),
      ...(route.request.query ? { query: route.request.query } : {}),
      ...(route.request.body
        ? { body: { required: true, content: { 'application/json': { schema: route.request.body } } } }
        : {}),
    },
    responses,
    ...(route.pluginSkill ? { 'x-skill-name': route.pluginSkill } : {}),
  });
}

/**
 * The routes an OpenAPI document describes. Console routes belong to the browser app
 * (docs/console.md), never to an assistant platform; a method that only ever refuses (the MCP
 * endpoint's GET and DELETE, 405) is no operation a client can call: its sibling's description says so.
 */
export function isDocumentedRoute(route: RouteDefinition): boolean {
  return !isConsoleRoute(route) && Object.keys(route.responses).some((status) => status.startsWith('2'));
}

export function buildOpenApiDocument(routes: readonly RouteDefinition[], options: OpenApiOptions) {
  const apiRoutes = routes.filter(isDocumentedRoute);
  const selected = options.view === 'plugin' ? apiRoutes.filter((r) => r.pluginSkill) : apiRoutes;
  return generateDocument(selected, {
    responseSchemas: options.responseSchemas,
    aliases: options.view === 'full',
    securityScheme: {
      name: 'ApiKeyAuth',
      scheme: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'A key created by an administrator. `Authorization: Bearer <key>` is accepted as well.',
      },
    },
    info: {
      title:
        options.view === 'plugin'
          ? 'Security Investigation Service (plugin skills)'
          : 'Security Investigation Service',
      version: SERVICE_VERSION,
      description:
        'Runs security investigations on IP addresses, users, hosts and domains, keeps a knowledge graph of ' +
        'related entities, lists incidents synced from SIEMs and searches past investigations. Every call ' +
        'except the public documents needs an API key in the X-API-Key header. Errors always have the shape ' +
        '{"error":{"code","message","request_id"}}.',
    },
    serverUrl: options.serverUrl,
  });
}

/**
 * The web console's JSON routes (its sign-in settings and the `/api/v1/console/` data routes) as an
 * OpenAPI document of their own. It is never published (the console routes are the browser app's,
 * not a plugin's): the console's TypeScript types are generated from it (scripts/console-api-types.ts)
 * and the console API tests check the answers against it. The HTML shell and the assets answer no
 * JSON and stay out.
 */
export function buildConsoleOpenApiDocument(
  routes: readonly RouteDefinition[],
  options: Omit<OpenApiOptions, 'view'>,
) {
  const selected = routes.filter(
    (r) => isConsoleRoute(r) && Object.values(r.responses).some((response) => response.schema),
  );
  return generateDocument(selected, {
    responseSchemas: options.responseSchemas,
    aliases: false,
    securityScheme: {
      name: 'ConsoleSignIn',
      scheme: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: "The ID token of a sign-in through the tenant's OpenID Connect issuer.",
      },
    },
    info: {
      title: 'Security Investigation Service (web console)',
      version: SERVICE_VERSION,
      description:
        'The routes the browser console calls (docs/console.md). Not published: the source of the ' +
        "console's generated types.",
    },
    serverUrl: options.serverUrl,
  });
}

interface DocumentParts {
  responseSchemas: ResponseSchemas | undefined;
  /** Register each route's alias paths as operations of their own (`<operationId>Alias<n>`). */
  aliases: boolean;
  securityScheme: { name: string; scheme: Parameters<OpenAPIRegistry['registerComponent']>[2] };
  info: { title: string; version: string; description: string };
  serverUrl: string;
}

function generateDocument(selected: readonly RouteDefinition[], parts: DocumentParts) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', parts.securityScheme.name, parts.securityScheme.scheme);
  const schemas = classicResponseSchemas(parts.responseSchemas ?? RESPONSE_SCHEMAS);
  const classicRoutes = selected.map(withClassicRequest);
  const scheme = parts.securityScheme.name;
  for (const route of classicRoutes) {
    register(registry, schemas, route, route.path, route.operationId, false, scheme);
    if (parts.aliases) {
      (route.aliases ?? []).forEach((alias, i) => {
        register(registry, schemas, route, alias, `${route.operationId}Alias${i + 1}`, true, scheme);
      });
    }
  }
  // Named schemas go first so each component is generated from its plain (non-nullable) form.
  const generator = new OpenApiGeneratorV3([
    ...namedSchemas(classicRoutes, schemas).map((schema) => ({ type: 'schema' as const, schema })),
    ...registry.definitions,
  ]);
  const document = generator.generateDocument({
    openapi: OPENAPI_VERSION,
    info: parts.info,
    servers: [{ url: parts.serverUrl }],
    tags: [...new Set(selected.flatMap((r) => r.tags))].map((name) => ({
      name,
      ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
    })),
  });
  return normaliseNullables(document);
}

type Json = Record<string, unknown>;

const classicTwins = new WeakMap<core.$ZodType, z.ZodType>();

/**
 * The classic twin of a zod/mini schema, for zod-to-openapi, which calls classic methods (`.meta()`,
 * `.unwrap()`) and reads classic-only fields (`minLength`, `format`, `isInt`). Each node is rebuilt
 * with the classic class of the same name (`ZodMiniString` → `ZodString`) from the same definition
 * (checks included) with its children converted, keeps its place in the copy chain (`parent`, through
 * which metadata is inherited) and its own metadata in the global registry, so a component `id` and
 * every description and example come out as classic `.meta()` would have written them. A classic node
 * is rebuilt the same way when a child of it is mini. Memoised by identity: a schema used in many
 * places stays one component.
 */
export function toClassic(schema: core.$ZodType): z.ZodType {
  const known = classicTwins.get(schema);
  if (known) return known;
  const def = { ...schema._zod.def } as unknown as Json;
  let changed = !(schema instanceof z.ZodType);
  const convert = (child: unknown) => {
    if (!isSchema(child)) return child;
    const twin = toClassic(child);
    if (twin !== child) changed = true;
    return twin;
  };
  for (const [key, value] of Object.entries(def)) {
    if (key === 'checks') continue;
    if (isSchema(value)) def[key] = convert(value);
    else if (Array.isArray(value) && value.some(isSchema)) def[key] = value.map(convert);
    else if (key === 'shape' && value && typeof value === 'object') {
      def[key] = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, convert(field)]));
    }
  }
  const parent = schema._zod.parent ? toClassic(schema._zod.parent) : undefined;
  if (parent !== schema._zod.parent) changed = true;
  if (!changed) {
    classicTwins.set(schema, schema as z.ZodType);
    return schema as z.ZodType;
  }
  const name = schema._zod.constr.name.replace(/^ZodMini/, 'Zod');
  const Classic = (z as unknown as Record<string, new (def: unknown) => z.ZodType>)[name];
  if (typeof Classic !== 'function') throw new Error(`zod classic has no ${name} for the OpenAPI document`);
  const twin = new Classic(def);
  if (parent) twin._zod.parent = parent;
  const metadata = z.globalRegistry._map.get(schema as z.ZodType);
  if (metadata) z.globalRegistry.add(twin, metadata);
  classicTwins.set(schema, twin);
  return twin;
}

function isSchema(value: unknown): value is core.$ZodType {
  return !!value && typeof value === 'object' && '_zod' in value;
}

/** A route row whose request schemas are classic twins, as zod-to-openapi needs them. */
type ClassicRoute = Omit<RouteDefinition, 'request'> & {
  request: { params?: z.ZodObject; query?: z.ZodObject; body?: z.ZodType };
};

type ClassicResponseSchemas = Readonly<Record<keyof ResponseSchemas, z.ZodType>>;

function withClassicRequest(route: RouteDefinition): ClassicRoute {
  const { params, query, body } = route.request;
  return {
    ...route,
    request: {
      ...(params ? { params: toClassic(params) as z.ZodObject } : {}),
      ...(query ? { query: toClassic(query) as z.ZodObject } : {}),
      ...(body ? { body: toClassic(body) } : {}),
    },
  };
}

function classicResponseSchemas(schemas: ResponseSchemas): ClassicResponseSchemas {
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, toClassic(schema)]),
  ) as unknown as ClassicResponseSchemas;
}

/** Request-body and response schemas (and everything inside them) that carry a component id. */
function namedSchemas(routes: readonly ClassicRoute[], schemas: ClassicResponseSchemas): z.ZodType[] {
  const found = new Map<string, z.ZodType>();
  const seen = new Set<unknown>();
  const visit = (schema: unknown) => {
    if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
    seen.add(schema);
    const def = schema._zod.def as unknown as Json;
    for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'keyType', 'valueType']) {
      visit(def[key]);
    }
    for (const key of ['options', 'items']) if (Array.isArray(def[key])) def[key].forEach(visit);
    if (def.shape && typeof def.shape === 'object') Object.values(def.shape).forEach(visit);
    const id = z.globalRegistry.get(schema)?.id;
    if (typeof id === 'string' && !found.has(id)) found.set(id, schema);
  };
  for (const route of routes) {
    visit(route.request.body);
    for (const response of Object.values(route.responses)) {
      if (response.schema) visit(schemas[response.schema]);
    }
  }
  return [...found.values()];
}

/**
 * OpenAPI 3.0.x gives `nullable` a meaning only beside `type` (Redocly: nullable-type-sibling), but
 * the generator writes `{nullable: true}` for "any value" (z.unknown) and `allOf: [$ref, {nullable:
 * true}]` for a nullable use of a named schema. The first becomes `{}` (which admits null); the
 * second inlines the named schema with `nullable: true`, so null is really allowed there while the
 * component itself stays non-nullable for its other uses.
 */
function normaliseNullables<D extends { components?: { schemas?: Record<string, unknown> } }>(
  document: D,
): D {
  const components = (document.components?.schemas ?? {}) as Record<string, Json>;
  const fix = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(fix);
    if (!node || typeof node !== 'object') return node;
    const allOf = (node as Json).allOf as Json[] | undefined;
    if (allOf?.length === 2 && typeof allOf[0]?.$ref === 'string' && isBareNullable(allOf[1])) {
      const { allOf: _, ...siblings } = node as Json;
      const target = components[String(allOf[0].$ref).replace('#/components/schemas/', '')];
      if (target?.type) {
        const inlined = fix({ ...target, ...siblings }) as Json;
        if (Array.isArray(inlined.enum)) inlined.enum = [...inlined.enum, null];
        return { ...inlined, nullable: true };
      }
    }
    const schema = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fix(v)])) as Json;
    if (schema.nullable === true && schema.type === undefined && !schema.allOf && !schema.anyOf) {
      const { nullable: _, ...rest } = schema;
      return rest;
    }
    return schema;
  };
  const fixed = fix(document) as D;
  pruneUnusedSchemas(fixed.components?.schemas as Record<string, unknown> | undefined, fixed);
  return fixed;
}

/** A component only ever used as nullable is now inlined everywhere; drop it from the document. */
function pruneUnusedSchemas(schemas: Record<string, unknown> | undefined, document: object) {
  if (!schemas) return;
  const used = new Set<string>();
  const collect = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const name = value.replace('#/components/schemas/', '');
          if (!used.has(name)) {
            used.add(name);
            collect(schemas[name]);
          }
        } else if (value !== schemas) collect(value);
      }
    }
  };
  collect(document);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

function isBareNullable(node: Json | undefined): boolean {
  return !!node && Object.keys(node).length === 1 && node.nullable === true;
}
