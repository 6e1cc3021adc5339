import { defineRoute } from '../route-types';
import { CreateWebhookRequest, WebhookParams } from '../schemas/webhooks/webhook-schemas';
import { consoleAdmin, consoleTags } from './console-twin';

/**
 * Webhooks (docs/soar.md "Webhooks"): admin keys and console admins subscribe an https URL to
 * events; deliveries are signed per Standard Webhooks. Each console row shares its API twin's
 * function (http-handler.ts twinRouteHandler), as the allowlist's do.
 */

export const createWebhook = /* @__PURE__ */ defineRoute({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/api/v1/admin/webhooks',
  access: { kind: 'admin' },
  functionName: 'create-webhook',
  summary: 'Subscribe a URL to events',
  description:
    'Registers an https URL for events (investigation.completed, investigation.failed, investigation.canceled, incident.enriched), optionally only those of one key’s sessions (key_id). The URL’s host must resolve to public addresses only (no private, loopback, link-local, unique-local or multicast address): 400 otherwise, and nothing is stored. The same URL with the same events twice is a 409. The signing secret (whsec_…) is returned only in this response.',
  tags: ['admin'],
  request: { body: CreateWebhookRequest },
  responses: { 201: { description: 'The webhook was created', schema: 'CreateWebhookResponse' } },
  errorStatuses: [409],
});

export const listWebhooks = /* @__PURE__ */ defineRoute({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/api/v1/admin/webhooks',
  access: { kind: 'admin' },
  functionName: 'list-webhooks',
  summary: 'List webhooks',
  description: 'Every webhook with its events and status; never a secret.',
  tags: ['admin'],
  request: {},
  responses: { 200: { description: 'The webhooks', schema: 'ListWebhooksResponse' } },
});

export const removeWebhook = /* @__PURE__ */ defineRoute({
  operationId: 'removeWebhook',
  method: 'DELETE',
  path: '/api/v1/admin/webhooks/{webhook_id}',
  access: { kind: 'admin' },
  functionName: 'remove-webhook',
  summary: 'Remove a webhook',
  description: 'Removes the webhook and its secret (204); deliveries not yet made are abandoned.',
  tags: ['admin'],
  request: { params: WebhookParams },
  responses: { 204: { description: 'The webhook was removed' } },
  errorStatuses: [404],
});

export const rotateWebhookSecret = /* @__PURE__ */ defineRoute({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/api/v1/admin/webhooks/{webhook_id}/rotate-secret',
  access: { kind: 'admin' },
  functionName: 'rotate-webhook-secret',
  summary: 'Rotate a webhook’s signing secret',
  description:
    'Issues a new secret, returned only in this response; from the next attempt on only the new secret signs.',
  tags: ['admin'],
  request: { params: WebhookParams },
  responses: { 200: { description: 'The new secret', schema: 'RotateWebhookSecretResponse' } },
  errorStatuses: [404],
});

export const listWebhookDeliveries = /* @__PURE__ */ defineRoute({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/api/v1/admin/webhooks/{webhook_id}/deliveries',
  access: { kind: 'admin' },
  functionName: 'list-webhook-deliveries',
  summary: 'A webhook’s delivery log',
  description:
    'The latest 100 deliveries of the last 30 days, newest attempt first: event, status, attempts, last status code and time. Each delivery keeps one webhook-id on every attempt.',
  tags: ['admin'],
  request: { params: WebhookParams },
  responses: { 200: { description: 'The deliveries', schema: 'WebhookDeliveriesResponse' } },
  errorStatuses: [404],
});

const twin = <R extends { operationId: string; path: string; summary: string }>(route: R) => ({
  ...route,
  operationId: route.operationId.replace(/^(create|list|remove|rotate)/, '$1Console'),
  path: route.path.replace('/api/v1/admin/', '/api/v1/console/admin/'),
  access: consoleAdmin,
  summary: `${route.summary} (console admins)`,
  description: `The same as ${route.operationId}.`,
  tags: consoleTags,
});

export const createConsoleWebhook = /* @__PURE__ */ defineRoute(twin(createWebhook));
export const listConsoleWebhooks = /* @__PURE__ */ defineRoute(twin(listWebhooks));
export const removeConsoleWebhook = /* @__PURE__ */ defineRoute(twin(removeWebhook));
export const rotateConsoleWebhookSecret = /* @__PURE__ */ defineRoute(twin(rotateWebhookSecret));
export const listConsoleWebhookDeliveries = /* @__PURE__ */ defineRoute(twin(listWebhookDeliveries));

export const webhookRoutes = [
  createWebhook,
  listWebhooks,
  removeWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  createConsoleWebhook,
  listConsoleWebhooks,
  removeConsoleWebhook,
  rotateConsoleWebhookSecret,
  listConsoleWebhookDeliveries,
] as const;
