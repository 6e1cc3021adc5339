import { defineRoute } from '../route-types';
import { AuditQuery } from '../schemas/console';
import { CreateApiKeyRequest, KeyIdParams, ListApiKeysQuery, RotateApiKeyRequest } from '../schemas/keys';
import { consoleAdmin, consoleTags } from './console-twin';

export const createApiKey = /* @__PURE__ */ defineRoute({
  operationId: 'createApiKey',
  method: 'POST',
  path: '/api/v1/admin/keys',
  access: { kind: 'admin' },
  functionName: 'create-api-key',
  summary: 'Create an API key',
  description: `Creates a key with a name, description, scopes, an expiry and optional rate limits. The full secret (api_key) is returned only in this response. Create one key per integration with the minimum scopes.`,
  tags: ['admin'],
  request: { body: CreateApiKeyRequest },
  responses: { 201: { description: 'The key was created', schema: 'CreateApiKeyResponse' } },
});

export const listApiKeys = /* @__PURE__ */ defineRoute({
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/api/v1/admin/keys',
  access: { kind: 'admin' },
  functionName: 'list-api-keys',
  summary: 'List API keys',
  description: `Lists all keys (optionally filtered by ?search=) with status, scopes, expiry and last_used_at. Only key_prefix is shown, never a secret.`,
  tags: ['admin'],
  request: { query: ListApiKeysQuery },
  responses: { 200: { description: 'The matching keys', schema: 'ListApiKeysResponse' } },
});

export const rotateApiKey = /* @__PURE__ */ defineRoute({
  operationId: 'rotateApiKey',
  method: 'POST',
  path: '/api/v1/admin/keys/{key_id}/rotate',
  access: { kind: 'admin' },
  functionName: 'rotate-api-key',
  summary: 'Rotate an API key',
  description: `Issues a new secret for the same key_id (ownership of sessions is kept). The previous secret stays accepted for grace_period_seconds (default 3600, 0 revokes it at once). A disabled or expired key cannot be rotated (409).`,
  tags: ['admin'],
  request: { params: KeyIdParams, body: RotateApiKeyRequest },
  responses: { 200: { description: 'The new secret', schema: 'RotateApiKeyResponse' } },
  errorStatuses: [409],
});

export const disableApiKey = /* @__PURE__ */ defineRoute({
  operationId: 'disableApiKey',
  method: 'POST',
  path: '/api/v1/admin/keys/{key_id}/disable',
  access: { kind: 'admin' },
  functionName: 'disable-api-key',
  summary: 'Disable an API key',
  description: `Revokes the key: from the next request on, its secrets (current and any in grace) are refused with 401. Disabling a disabled key succeeds.`,
  tags: ['admin'],
  request: { params: KeyIdParams },
  responses: { 200: { description: 'The key, now disabled', schema: 'ApiKeySummary' } },
});

export const keyRoutes = [createApiKey, listApiKeys, rotateApiKey, disableApiKey] as const;

export const listConsoleKeys = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleKeys',
  method: 'GET',
  path: '/api/v1/console/admin/keys',
  access: consoleAdmin,
  functionName: 'console-list-keys',
  summary: 'List API keys (console admins)',
  description: 'The same as listApiKeys.',
  tags: consoleTags,
  request: { query: ListApiKeysQuery },
  responses: { 200: { description: 'The matching keys', schema: 'ListApiKeysResponse' } },
});

export const createConsoleKey = /* @__PURE__ */ defineRoute({
  operationId: 'createConsoleKey',
  method: 'POST',
  path: '/api/v1/console/admin/keys',
  access: consoleAdmin,
  functionName: 'console-create-key',
  summary: 'Create an API key (console admins)',
  description: 'The same as createApiKey; the audit trail names the signed-in person as the actor.',
  tags: consoleTags,
  request: { body: CreateApiKeyRequest },
  responses: { 201: { description: 'The key was created', schema: 'CreateApiKeyResponse' } },
});

export const rotateConsoleKey = /* @__PURE__ */ defineRoute({
  operationId: 'rotateConsoleKey',
  method: 'POST',
  path: '/api/v1/console/admin/keys/{key_id}/rotate',
  access: consoleAdmin,
  functionName: 'console-rotate-key',
  summary: 'Rotate an API key (console admins)',
  description: 'The same as rotateApiKey.',
  tags: consoleTags,
  request: { params: KeyIdParams, body: RotateApiKeyRequest },
  responses: { 200: { description: 'The new secret', schema: 'RotateApiKeyResponse' } },
  errorStatuses: [409],
});

export const disableConsoleKey = /* @__PURE__ */ defineRoute({
  operationId: 'disableConsoleKey',
  method: 'POST',
  path: '/api/v1/console/admin/keys/{key_id}/disable',
  access: consoleAdmin,
  functionName: 'console-disable-key',
  summary: 'Disable an API key (console admins)',
  description: 'The same as disableApiKey.',
  tags: consoleTags,
  request: { params: KeyIdParams },
  responses: { 200: { description: 'The key, now disabled', schema: 'ApiKeySummary' } },
});

export const listConsoleAudit = /* @__PURE__ */ defineRoute({
  operationId: 'listConsoleAudit',
  method: 'GET',
  path: '/api/v1/console/admin/audit',
  access: consoleAdmin,
  functionName: 'console-list-audit',
  summary: 'The key audit trail (console admins)',
  description: 'Every key administration operation, newest first.',
  tags: consoleTags,
  request: { query: AuditQuery },
  responses: { 200: { description: 'Audit entries, newest first', schema: 'AuditResponse' } },
});

export const keyConsoleRoutes = [
  listConsoleKeys,
  createConsoleKey,
  rotateConsoleKey,
  disableConsoleKey,
  listConsoleAudit,
] as const;
