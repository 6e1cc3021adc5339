import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DeliveryStatus, WebhookDelivery } from '../../domain/webhooks/delivery';
import { DELIVERY_LOG_DAYS } from '../../domain/webhooks/webhook';
import { isConditionFailure } from '../condition-failures';
import { GSI1 } from '../tables';
import { deliveriesPk, deliverySk } from './webhook-items';

const DAY_SECONDS = 86_400;
/**
 * The sparse gsi1 partition of the deliveries a session's status change wrote in its own
 * transaction (outboxPut) and not yet claimed: what the sweeper dispatches again when their first
 * send was lost. The first claim takes a delivery out of it.
 */
const OUTBOX = 'OUTBOX';

function deliveryItem(delivery: WebhookDelivery) {
  return {
    pk: deliveriesPk(delivery.webhook_id),
    sk: deliverySk(delivery.delivery_id),
    ...delivery,
    expires_at_epoch: Math.ceil(Date.parse(delivery.created_at) / 1000) + DELIVERY_LOG_DAYS * DAY_SECONDS,
  };
}

/**
 * The transaction Put of a delivery written with the status change that ends its session (cancel,
 * the sweeper, the local restart): created unless it exists, and listed in the outbox until claimed.
 */
export function outboxPut(table: string, delivery: WebhookDelivery) {
  return {
    Put: {
      TableName: table,
      Item: {
        ...deliveryItem(delivery),
        [GSI1.partitionKey]: OUTBOX,
        [GSI1.sortKey]: `${delivery.created_at}#${delivery.delivery_id}`,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

function fromItem(item: Record<string, unknown>): WebhookDelivery {
  const {
    pk: _pk,
    sk: _sk,
    expires_at_epoch: _ttl,
    claimed_until: _claim,
    gsi1pk: _outbox,
    gsi1sk: _outboxOrder,
    ...rest
  } = item;
  return rest as unknown as WebhookDelivery;
}

/**
 * The delivery log (webhook-items.ts): one item per event and webhook, kept DELIVERY_LOG_DAYS after
 * its creation. Its conditional creation makes publishing idempotent; its attempt counter, moved
 * forward only by the attempt that expects it (a claim with a lease), makes each attempt happen once
 * even when SQS hands the same message to two consumers.
 */
export class DeliveriesRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Writes the delivery unless it exists; true when this call created it. */
  async createOnce(delivery: WebhookDelivery): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: deliveryItem(delivery),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: deliveriesPk(webhookId), sk: deliverySk(deliveryId) },
        ConsistentRead: true,
      }),
    );
    return Item ? fromItem(Item) : undefined;
  }

  /**
   * Claims attempt `attempt`: only when the attempts made so far are `attempt - 1` and the delivery
   * waits for one, or when this very attempt was claimed by a sender whose lease has run out (it
   * died). Undefined when another consumer holds or made it, or the delivery has ended.
   */
  async claimAttempt(
    webhookId: string,
    deliveryId: string,
    attempt: number,
    nowSeconds: number,
    leaseSeconds: number,
  ): Promise<WebhookDelivery | undefined> {
    try {
      const { Attributes } = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: deliveriesPk(webhookId), sk: deliverySk(deliveryId) },
          // Claimed: out of the outbox (a no-op on a delivery that was never in it).
          UpdateExpression: `SET attempts = :attempt, #status = :delivering, claimed_until = :until REMOVE ${GSI1.partitionKey}, ${GSI1.sortKey}`,
          ConditionExpression:
            '(attempts = :previous AND #status IN (:pending, :retrying)) OR (attempts = :attempt AND #status = :delivering AND claimed_until < :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':attempt': attempt,
            ':previous': attempt - 1,
            ':delivering': 'delivering',
            ':pending': 'pending',
            ':retrying': 'retrying',
            ':until': nowSeconds + leaseSeconds,
            ':now': nowSeconds,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? fromItem(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /** Records what the claimed attempt came to. */
  async recordAttempt(
    webhookId: string,
    deliveryId: string,
    result: { status: DeliveryStatus; at: string; statusCode?: number; error?: string },
  ): Promise<void> {
    const values: Record<string, unknown> = { ':status': result.status, ':at': result.at };
    const sets = ['#status = :status', 'last_attempt_at = :at'];
    const removes = ['claimed_until'];
    if (result.statusCode === undefined) removes.push('last_status_code');
    else {
      sets.push('last_status_code = :code');
      values[':code'] = result.statusCode;
    }
    if (result.error === undefined) removes.push('last_error');
    else {
      sets.push('last_error = :error');
      values[':error'] = result.error.slice(0, 300);
    }
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: deliveriesPk(webhookId), sk: deliverySk(deliveryId) },
        UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      }),
    );
  }

  /**
   * The outbox's deliveries (outboxPut) created between `after` and `before` (ISO) and not yet
   * claimed, oldest first, at most `limit`. The index is eventually consistent: read each again.
   */
  async listUnclaimed(after: string, before: string, limit: number) {
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#gpk = :outbox AND #gsk BETWEEN :after AND :before',
        ExpressionAttributeNames: { '#gpk': GSI1.partitionKey, '#gsk': GSI1.sortKey },
        ExpressionAttributeValues: { ':outbox': OUTBOX, ':after': after, ':before': before },
        ProjectionExpression: 'webhook_id, delivery_id',
        Limit: limit,
      }),
    );
    return (Items ?? []).map((item) => ({
      webhook_id: String(item.webhook_id),
      delivery_id: String(item.delivery_id),
    }));
  }

  /** The webhook's deliveries still in the log, latest attempt (or creation) first, at most `limit`. */
  async list(webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    const deliveries: WebhookDelivery[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': deliveriesPk(webhookId), ':prefix': 'DELIVERY#' },
          ProjectionExpression:
            'delivery_id, webhook_id, event, #status, attempts, last_status_code, last_error, last_attempt_at, created_at',
          ExpressionAttributeNames: { '#status': 'status' },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) deliveries.push(fromItem(item));
      start = page.LastEvaluatedKey;
    } while (start && deliveries.length < 2000);
    const when = (d: WebhookDelivery) => d.last_attempt_at ?? d.created_at;
    return deliveries.sort((a, b) => when(b).localeCompare(when(a))).slice(0, limit);
  }
}
