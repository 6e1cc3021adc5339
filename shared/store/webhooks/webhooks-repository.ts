import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../../domain/core/errors';
import type { AuditEntry } from '../../domain/keys/key-lifecycle';
import { MAX_WEBHOOKS, type Webhook } from '../../domain/webhooks/webhook';
import { type TransactItem, transactWithAudit } from '../audit-items';
import { subscriptionSk, WEBHOOK_SECRET_SK, WEBHOOKS_PK, webhookSecretPk, webhookSk } from './webhook-items';

type StoredWebhook = Webhook & { fingerprint: string };

function fromItem(item: Record<string, unknown>): StoredWebhook {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as StoredWebhook;
}

/**
 * Subscriptions in the sessions table, their secrets in the keys table (webhook-items.ts). Every
 * change is written in one transaction with its admin audit entry (audit-items.ts, keys table).
 */
export class WebhooksRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly sessionsTable: string,
    private readonly keysTable: string,
  ) {}

  /**
   * Stores the webhook, its uniqueness guard and its secret in one transaction; ConflictError when a
   * webhook with the same URL and events exists (nothing is stored).
   */
  async create(webhook: Webhook, fingerprint: string, secret: string, audit: AuditEntry): Promise<void> {
    const written = await this.audited(
      [
        {
          Put: {
            TableName: this.sessionsTable,
            Item: { pk: WEBHOOKS_PK, sk: webhookSk(webhook.webhook_id), ...webhook, fingerprint },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: this.sessionsTable,
            Item: { pk: WEBHOOKS_PK, sk: subscriptionSk(fingerprint), webhook_id: webhook.webhook_id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: this.keysTable,
            Item: { pk: webhookSecretPk(webhook.webhook_id), sk: WEBHOOK_SECRET_SK, secret },
          },
        },
      ],
      audit,
    );
    if (!written) {
      throw new ConflictError(
        'A webhook with this URL and these events exists: remove it first to change it.',
      );
    }
  }

  /** Every webhook (at most MAX_WEBHOOKS: one page), oldest first. */
  async list(): Promise<Webhook[]> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.sessionsTable,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': WEBHOOKS_PK, ':prefix': 'WEBHOOK#' },
        Limit: MAX_WEBHOOKS + 1,
      }),
    );
    return Items.map((item) => {
      const { fingerprint: _fingerprint, ...webhook } = fromItem(item);
      return webhook;
    }).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async get(webhookId: string): Promise<StoredWebhook | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.sessionsTable, Key: { pk: WEBHOOKS_PK, sk: webhookSk(webhookId) } }),
    );
    return Item ? fromItem(Item) : undefined;
  }

  /** Deletes the webhook, its guard and its secret; NotFoundError when there is none. */
  async remove(webhookId: string, audit: AuditEntry): Promise<void> {
    const webhook = await this.get(webhookId);
    if (!webhook) throw new NotFoundError('No webhook with this ID.');
    const written = await this.audited(
      [
        {
          Delete: {
            TableName: this.sessionsTable,
            Key: { pk: WEBHOOKS_PK, sk: webhookSk(webhookId) },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Delete: {
            TableName: this.sessionsTable,
            Key: { pk: WEBHOOKS_PK, sk: subscriptionSk(webhook.fingerprint) },
          },
        },
        {
          Delete: {
            TableName: this.keysTable,
            Key: { pk: webhookSecretPk(webhookId), sk: WEBHOOK_SECRET_SK },
          },
        },
      ],
      { ...audit, details: { ...audit.details, url: webhook.url } },
    );
    if (!written) throw new NotFoundError('No webhook with this ID.');
  }

  /** Replaces the secret (the old one no longer signs); NotFoundError for no such webhook. */
  async rotateSecret(webhookId: string, secret: string, at: string, audit: AuditEntry): Promise<void> {
    const written = await this.audited(
      [
        {
          Update: {
            TableName: this.sessionsTable,
            Key: { pk: WEBHOOKS_PK, sk: webhookSk(webhookId) },
            UpdateExpression: 'SET secret_rotated_at = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at },
          },
        },
        {
          Put: {
            TableName: this.keysTable,
            Item: { pk: webhookSecretPk(webhookId), sk: WEBHOOK_SECRET_SK, secret },
          },
        },
      ],
      audit,
    );
    if (!written) throw new NotFoundError('No webhook with this ID.');
  }

  /** The signing secret, read strongly consistent: right after a rotation only the new one signs. */
  async secretOf(webhookId: string): Promise<string | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.keysTable,
        Key: { pk: webhookSecretPk(webhookId), sk: WEBHOOK_SECRET_SK },
        ConsistentRead: true,
      }),
    );
    return typeof Item?.secret === 'string' ? Item.secret : undefined;
  }

  /**
   * Marks an active webhook disabled (a 410 from its receiver), audited; nothing when it is gone or
   * already disabled (two attempts answered 410 at once audit one change).
   */
  async disable(webhookId: string, reason: string, audit: AuditEntry): Promise<void> {
    // Refused when gone or already disabled: nothing to do.
    await this.audited(
      [
        {
          Update: {
            TableName: this.sessionsTable,
            Key: { pk: WEBHOOKS_PK, sk: webhookSk(webhookId) },
            UpdateExpression: 'SET #status = :disabled, disabled_reason = :reason',
            ConditionExpression: 'attribute_exists(pk) AND #status = :active',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':disabled': 'disabled',
              ':reason': reason,
              ':active': 'active',
            },
          },
        },
      ],
      audit,
    );
  }

  /** The change and its audit entry in one transaction; false when a condition refused it. */
  private audited(actions: readonly TransactItem[], audit: AuditEntry): Promise<boolean> {
    return transactWithAudit(this.doc, this.keysTable, actions, audit);
  }
}
