import * as z from 'zod';
import { Cursor, Entity, Limit, NextCursor, SessionId } from './common';
import { SessionStatus, Verdict } from './search';

/**
 * Request and response shapes of the console's own routes (`/api/v1/console/...`, `/console/...`):
 * the contract with the browser app, docs/console.md. They are not in the plugin's OpenAPI document.
 */
export const ConsoleRole = /* @__PURE__ */ z.enum(['analyst', 'admin']);

export const ConsoleMeResponse = /* @__PURE__ */ z.object({
  username: z.string(),
  email: z.string().optional(),
  role: ConsoleRole,
  groups: z.array(z.string()),
});

export const ConsoleSessionsQuery = /* @__PURE__ */ z.object({
  q: z.string().trim().min(1).max(256).optional(),
  limit: Limit,
  cursor: Cursor.optional(),
});

export const SessionOwner = /* @__PURE__ */ z.object({ kind: z.enum(['key', 'user']), id: z.string() });

export const ConsoleSessionItem = /* @__PURE__ */ z.object({
  session_id: SessionId,
  status: SessionStatus,
  entity: Entity,
  persona: z.string(),
  risk_score: z.number().min(0).max(100).nullable(),
  verdict: Verdict.nullable(),
  summary: z.string().nullable(),
  created_at: z.iso.datetime(),
  owner: SessionOwner,
});

export const ConsoleSessionsResponse = /* @__PURE__ */ z.object({
  results: z.array(ConsoleSessionItem),
  next_cursor: NextCursor,
});

export const ConsoleStartResponse = /* @__PURE__ */ z.object({
  session_id: SessionId,
  run_id: z.string(),
  session_url: z.url(),
  status: SessionStatus,
});

export const IncidentParams = /* @__PURE__ */ z.object({
  incident_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be an incident ID'),
});

export const AuditQuery = /* @__PURE__ */ z.object({ limit: Limit, cursor: Cursor.optional() });

export const AuditEntryView = /* @__PURE__ */ z.object({
  at: z.iso.datetime(),
  action: z.string(),
  key_id: z.string(),
  actor: z.string(),
  details: z.record(z.string(), z.unknown()),
});

export const AuditResponse = /* @__PURE__ */ z.object({
  entries: z.array(AuditEntryView),
  next_cursor: NextCursor,
});

export const ConsoleConfigResponse = /* @__PURE__ */ z.object({
  issuer: z.url(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  end_session_endpoint: z.url().nullable(),
  client_id: z.string(),
  redirect_uri: z.url(),
  post_logout_redirect_uri: z.url(),
  scopes: z.string(),
});

export const AssetParams = /* @__PURE__ */ z.object({
  file: z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|map|svg|json)$/, 'asset name'),
});
