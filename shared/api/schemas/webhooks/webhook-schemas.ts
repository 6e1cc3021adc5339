import { DELIVERY_STATUSES } from '../../../domain/webhooks/delivery';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENTS,
  WEBHOOK_STATUSES,
} from '../../../domain/webhooks/webhook';
import * as z from '../../../zod';
import { withMeta } from '../../../zod';
import { IsoDateTime } from '../common';
import { KeyId } from '../keys';

/** Webhook subscriptions and their delivery log (docs/soar.md "Webhooks"). */

const EXAMPLE_SECRET = 'whsec_RXhhbXBsZSBzZWNyZXQsIG5vdCBhIHJlYWwgb25lISE=';

export const WebhookEventName = /* @__PURE__ */ (() =>
  withMeta(z.enum(WEBHOOK_EVENTS), {
    id: 'WebhookEvent',
    description:
      'investigation.completed|failed|canceled: a session ended so (data: session_id, status, verdict, risk_score, session_url, entity); incident.enriched: every entity of an auto-investigated incident has ended (data: incident_id, link, sessions)',
    example: 'investigation.completed',
  }))();

export const WebhookId = /* @__PURE__ */ (() =>
  withMeta(
    z.string().check(z.regex(/^wh_[a-z2-7]{16}$/, 'must be a webhook_id as returned by createWebhook')),
    {
      description: 'Stable webhook identifier',
      example: 'wh_k7q2m4x3c3v5b6n2',
    },
  ))();

export const WebhookParams = /* @__PURE__ */ (() =>
  withMeta(z.object({ webhook_id: WebhookId }), { id: 'WebhookParams' }))();

export const CreateWebhookRequest = /* @__PURE__ */ (() =>
  withMeta(
    z.strictObject({
      url: withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_WEBHOOK_URL_LENGTH)), {
        description:
          'Where events are POSTed: https, on a host whose every address is public (checked now and at every delivery); redirects are not followed',
        example: 'https://soar.example.com/hooks/sis',
      }),
      events: withMeta(z.array(WebhookEventName).check(z.minLength(1), z.maxLength(WEBHOOK_EVENTS.length)), {
        description: 'The events to send (at least one)',
        example: ['investigation.completed', 'investigation.failed'],
      }),
      description: withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH)), {
        description: 'What receives it (a playbook, a SOAR)',
        example: 'XSOAR playbook: enrichment done',
      }),
      key_id: withMeta(z.optional(KeyId), {
        description: 'Only events of sessions this API key started; without it, every session of the tenant',
      }),
    }),
    { id: 'CreateWebhookRequest' },
  ))();

export const WebhookSummary = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      webhook_id: WebhookId,
      url: z.string(),
      events: z.array(WebhookEventName),
      description: z.string(),
      key_id: z.optional(z.string()),
      status: withMeta(z.enum(WEBHOOK_STATUSES), {
        description:
          'active: receives events; disabled: its receiver answered 410 Gone (remove it and add it again)',
      }),
      disabled_reason: z.optional(z.string()),
      created_at: IsoDateTime,
      created_by: withMeta(z.string(), { description: 'key:<key ID> or user:<name>', example: 'user:admin' }),
      secret_rotated_at: z.optional(IsoDateTime),
    }),
    { id: 'WebhookSummary', description: 'A webhook subscription (never its secret)' },
  ))();

const WebhookSecret = /* @__PURE__ */ (() =>
  withMeta(z.string(), {
    description:
      'The signing secret (Standard Webhooks `whsec_<base64>`), shown only in this response: give it to the receiver, which verifies webhook-signature with it',
    example: EXAMPLE_SECRET,
  }))();

export const CreateWebhookResponse = /* @__PURE__ */ (() =>
  withMeta(z.extend(WebhookSummary, { secret: WebhookSecret }), {
    id: 'CreateWebhookResponse',
    description: 'The webhook with its secret, shown this once',
  }))();

export const ListWebhooksResponse = /* @__PURE__ */ (() =>
  withMeta(z.object({ webhooks: z.array(WebhookSummary) }), { id: 'ListWebhooksResponse' }))();

export const RotateWebhookSecretResponse = /* @__PURE__ */ (() =>
  withMeta(z.object({ secret: WebhookSecret }), {
    id: 'RotateWebhookSecretResponse',
    description: 'The new secret; from now on only it signs',
  }))();

export const WebhookDeliveriesResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      deliveries: z.array(
        z.object({
          delivery_id: withMeta(z.string(), {
            description: 'The webhook-id header of every attempt (the receiver’s idempotency key)',
            example: 'msg_2f1c0a9e5b7d2c4a6e8f0b1d3c5a7e9f',
          }),
          event: WebhookEventName,
          status: withMeta(z.enum(DELIVERY_STATUSES), {
            description:
              'pending: queued; delivering: an attempt is under way; retrying: an attempt failed, another is scheduled; delivered: a 2xx; failed: attempts spent (reported to the failures alarm); abandoned: the webhook was disabled or removed',
          }),
          attempts: z.number(),
          last_status_code: z.optional(z.number()),
          last_error: z.optional(z.string()),
          last_attempt_at: z.optional(IsoDateTime),
          created_at: IsoDateTime,
        }),
      ),
    }),
    { id: 'WebhookDeliveriesResponse', description: 'The latest 100 deliveries of the last 30 days' },
  ))();
