/**
 * Where webhooks live (docs/soar.md "Webhooks"):
 *
 *   sessions table  pk WEBHOOKS               sk WEBHOOK#<webhook_id>        the subscription (no secret)
 *   sessions table  pk WEBHOOKS               sk SUBSCRIPTION#<fingerprint>  guard: one webhook per URL + events
 *   sessions table  pk WEBHOOK#<webhook_id>   sk DELIVERY#<delivery_id>      the delivery log (TTL 30 days)
 *   keys table      pk WEBHOOKSECRET#<id>     sk SECRET                      the signing secret
 *
 * The secret sits in the keys table, as the cursor secret does (credentials material, encrypted at
 * rest, no idle cost), under a partition key of its own, so IAM grants exactly those items to the
 * functions that sign or set them (`dynamodb:LeadingKeys` WEBHOOKSECRET#*), and the many functions
 * that read the sessions table (every workflow step) never see a secret. The delivery items are the
 * outbox: a publisher writes one per (webhook, event) with a condition, so an event published twice
 * is still one delivery.
 */
export const WEBHOOKS_PK = 'WEBHOOKS';
export const WEBHOOK_SECRET_PK_PATTERN = 'WEBHOOKSECRET#*';
export const WEBHOOK_SECRET_SK = 'SECRET';
/** The sessions table's webhook partitions (subscriptions, delivery logs), for IAM's LeadingKeys. */
export const WEBHOOK_ITEM_PK_PATTERNS = [WEBHOOKS_PK, 'WEBHOOK#*'] as const;

export const webhookSk = (webhookId: string) => `WEBHOOK#${webhookId}`;
export const subscriptionSk = (fingerprint: string) => `SUBSCRIPTION#${fingerprint}`;
export const webhookSecretPk = (webhookId: string) => `WEBHOOKSECRET#${webhookId}`;
export const deliveriesPk = (webhookId: string) => `WEBHOOK#${webhookId}`;
export const deliverySk = (deliveryId: string) => `DELIVERY#${deliveryId}`;
