/** The events a webhook may subscribe to and its limits: shared by the service and the console's form. */
export const WEBHOOK_EVENTS = [
  'investigation.completed',
  'investigation.failed',
  'investigation.canceled',
  'incident.enriched',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;
