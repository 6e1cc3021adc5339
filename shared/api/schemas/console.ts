import * as z from '../../zod';
import { Cursor, Limit } from './common';
import { BatchParams } from './investigation-request';

/**
 * Request shapes of the console's own routes (`/api/v1/console/...`, `/console/...`): the contract
 * with the browser app, docs/console.md, with the response shapes in console-responses.ts. They are
 * not in the plugin's OpenAPI document.
 */
export const ConsoleSessionsQuery = /* @__PURE__ */ (() =>
  z.object({
    q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(256))),
    limit: Limit,
    cursor: z.optional(Cursor),
    /** Only the sessions of this batch (POST /api/v1/investigations/batch), all of them in one page. */
    batch_id: z.optional(BatchParams.shape.batch_id),
  }))();

export const IncidentParams = /* @__PURE__ */ (() =>
  z.object({
    incident_id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be an incident ID')),
  }))();

export const AuditQuery = /* @__PURE__ */ (() => z.object({ limit: Limit, cursor: z.optional(Cursor) }))();

export const AssetParams = /* @__PURE__ */ (() =>
  z.object({
    file: z
      .string()
      .check(z.regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|map|svg|json)$/, 'asset name')),
  }))();
