import { defineRoute } from '../route-types';
import { CreateApiKeyRequest, KeyIdParams, ListApiKeysQuery, RotateApiKeyRequest } from '../schemas/keys';

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
