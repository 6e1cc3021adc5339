import * as z from '../../zod';
import { Entity, NextCursor, SessionId } from './common';
import { IncidentEntity, IncidentOriginSchema, IncidentSeverity, IncidentStatus } from './incidents';
import { SessionStatus, Verdict } from './search';

/**
 * Response shapes of the console's own routes: the contract with the browser app, docs/console.md.
 * Only the response-schema registry imports them (the console routes are in no OpenAPI document).
 * They are kept apart from the request shapes in console.ts, which every console function imports,
 * because esbuild keeps an unreferenced `z.object({ name: z.string() })` (its arguments are calls it
 * cannot prove free of side effects), so every console function would build them at cold start.
 */
export const ConsoleRole = /* @__PURE__ */ (() => z.enum(['analyst', 'admin']))();

export const ConsoleMeResponse = /* @__PURE__ */ (() =>
  z.object({
    username: z.string(),
    email: z.optional(z.string()),
    role: ConsoleRole,
    groups: z.array(z.string()),
  }))();

export const SessionOwner = /* @__PURE__ */ (() =>
  z.object({
    kind: z.enum(['key', 'user']),
    id: z.string(),
    /** The key's name, or the person's username (null when the console cannot know it). */
    name: z.nullable(z.string()),
    /** mcp: a key started it through the MCP endpoint; absent: the REST API or the console. */
    via: z.optional(z.enum(['mcp'])),
  }))();

export const ConsoleSessionItem = /* @__PURE__ */ (() =>
  z.object({
    session_id: SessionId,
    status: SessionStatus,
    entity: Entity,
    persona: z.string(),
    risk_score: z.nullable(z.number().check(z.gte(0), z.lte(100))),
    verdict: z.nullable(Verdict),
    summary: z.nullable(z.string()),
    created_at: z.iso.datetime(),
    owner: SessionOwner,
  }))();

export const ConsoleSessionsResponse = /* @__PURE__ */ (() =>
  z.object({
    results: z.array(ConsoleSessionItem),
    next_cursor: NextCursor,
  }))();

export const ConsoleStartResponse = /* @__PURE__ */ (() =>
  z.object({
    session_id: SessionId,
    run_id: z.string(),
    session_url: z.url(),
    status: SessionStatus,
  }))();

/** One incident in full, as its console page shows it (absent texts are null, unlike the list's). */
export const ConsoleIncidentResponse = /* @__PURE__ */ (() =>
  z.object({
    incident_id: z.string(),
    title: z.string(),
    description: z.nullable(z.string()),
    severity: IncidentSeverity,
    status: IncidentStatus,
    link: z.url(),
    source: z.string(),
    source_id: z.string(),
    source_url: z.nullable(z.string()),
    origin: z.nullable(IncidentOriginSchema),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    entities: z.array(IncidentEntity),
  }))();

export const AuditEntryView = /* @__PURE__ */ (() =>
  z.object({
    at: z.iso.datetime(),
    action: z.string(),
    key_id: z.string(),
    actor: z.string(),
    details: z.record(z.string(), z.unknown()),
  }))();

export const AuditResponse = /* @__PURE__ */ (() =>
  z.object({
    entries: z.array(AuditEntryView),
    next_cursor: NextCursor,
  }))();

export const ConsoleConfigResponse = /* @__PURE__ */ (() =>
  z.object({
    issuer: z.url(),
    authorization_endpoint: z.url(),
    token_endpoint: z.url(),
    end_session_endpoint: z.nullable(z.url()),
    client_id: z.string(),
    redirect_uri: z.url(),
    post_logout_redirect_uri: z.url(),
    scopes: z.string(),
  }))();
