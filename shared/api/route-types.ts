import type { Access } from '../domain/keys/scopes';
import type * as z from '../zod';
import type { ResponseSchemaName } from './response-schemas';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface ResponseDefinition {
  description: string;
  /**
   * The body's schema, by its name in RESPONSE_SCHEMAS (shared/api/response-schemas.ts): a name, not
   * the schema, so a handler importing its route row does not build response schemas at cold start.
   */
  schema?: ResponseSchemaName;
  /** A 202 handing back work to follow: it carries Location (the poll URL) and Retry-After (seconds). */
  pollHeaders?: boolean;
}

/**
 * One row of the route table: everything the gateway (CDK and local), the authorizer policy, the
 * OpenAPI document and the authorization tests need to know about an endpoint.
 */
export interface RouteDefinition {
  operationId: string;
  method: HttpMethod;
  /** API Gateway style path template, e.g. `/api/v1/sessions/{session_id}`. */
  path: string;
  /** Further paths served by the same function (public twins, proxy prefix added automatically). */
  aliases?: readonly string[];
  access: Access;
  /** The caller must own the session named by the `session_id` path parameter. */
  ownerOnly?: boolean;
  /** Folder under `functions/` holding `handler.ts`; one Lambda per route. */
  functionName: string;
  summary: string;
  description: string;
  tags: readonly string[];
  /** Name of the assistant-platform skill this route implements, if any. */
  pluginSkill?: string;
  request: {
    params?: z.core.$ZodObject;
    query?: z.core.$ZodObject;
    body?: z.core.$ZodType;
  };
  /** Success responses by status; error responses are added from the access rules. */
  responses: Record<number, ResponseDefinition>;
  /** Route-specific error statuses beyond those derived from access and input (e.g. 409). */
  errorStatuses?: readonly number[];
  /** Lambda timeout; defaults to the construct's default. */
  timeoutSeconds?: number;
  memoryMb?: number;
}

export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** Every route under `/api/v1/public/` is also served under the frontend proxy prefix. */
export const PUBLIC_PREFIX = '/api/v1/public/';
export const PROXY_PREFIX = '/proxy/agent';

export function servedPaths(route: RouteDefinition): string[] {
  const paths = [route.path, ...(route.aliases ?? [])];
  const proxied = paths.filter((p) => p.startsWith(PUBLIC_PREFIX)).map((p) => `${PROXY_PREFIX}${p}`);
  return [...paths, ...proxied];
}
