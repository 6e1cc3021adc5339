import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import type { CircuitState } from '../domain/intel/circuit';
import { documentClientFor } from './dynamo-client';
import { tableName } from './tables';

/**
 * Threat-intelligence connector state in the intel table (tables.ts): cached provider answers,
 * daily quota counters and circuit breakers. Keys are built only here.
 *
 *   pk CACHE#<connector>#<type>#<value>  sk CACHE     one provider answer, deleted by TTL
 *   pk QUOTA#<connector>                 sk <UTC day> lookups made that day, last call time (pacing)
 *   pk CIRCUIT#<connector>               sk STATE     consecutive failures, open-until, last error
 */

export interface CachedAnswer {
  status: number;
  body: unknown;
  fetched_at: string;
}

export type QuotaOutcome =
  | { ok: true; used: number }
  | { ok: false; reason: 'exhausted'; used: number }
  | { ok: false; reason: 'paced'; waitMs: number };

export interface QuotaUsage {
  used: number;
  last_call_ms?: number;
}

const cacheKey = (connector: string, type: string, value: string) => ({
  pk: `CACHE#${connector}#${type}#${value}`,
  sk: 'CACHE',
});
const quotaKey = (connector: string, day: string) => ({ pk: `QUOTA#${connector}`, sk: day });
const circuitKey = (connector: string) => ({ pk: `CIRCUIT#${connector}`, sk: 'STATE' });

export class IntelRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async getCached(
    connector: string,
    entity: { type: string; value: string },
    nowMs: number,
  ): Promise<CachedAnswer | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: cacheKey(connector, entity.type, entity.value) }),
    );
    // DynamoDB TTL deletes within days, not on the second: an expired item is a miss.
    if (!Item || Number(Item.expires_at_epoch) * 1000 <= nowMs) return undefined;
    try {
      return {
        status: Number(Item.status),
        body: JSON.parse(String(Item.body)),
        fetched_at: String(Item.fetched_at),
      };
    } catch {
      return undefined;
    }
  }

  async putCached(
    connector: string,
    entity: { type: string; value: string },
    answer: CachedAnswer,
    ttlSeconds: number,
  ): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...cacheKey(connector, entity.type, entity.value),
          status: answer.status,
          // One string attribute: provider JSON may hold empty keys or shapes DynamoDB maps refuse.
          body: JSON.stringify(answer.body),
          fetched_at: answer.fetched_at,
          expires_at_epoch: Math.floor(Date.parse(answer.fetched_at) / 1000) + ttlSeconds,
        },
      }),
    );
  }

  /**
   * Counts one lookup against the day's quota, atomically: refused when the quota is spent, or when
   * the last lookup was less than `minIntervalMs` ago (pacing: the caller waits and tries again).
   */
  async takeQuota(
    connector: string,
    day: string,
    limit: number,
    minIntervalMs: number,
    nowMs: number,
  ): Promise<QuotaOutcome> {
    try {
      const { Attributes } = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: quotaKey(connector, day),
          UpdateExpression: 'ADD used :one SET last_call_ms = :now, expires_at_epoch = :expires',
          ConditionExpression:
            '(attribute_not_exists(used) OR used < :limit) AND (attribute_not_exists(last_call_ms) OR last_call_ms <= :paced)',
          ExpressionAttributeValues: {
            ':one': 1,
            ':now': nowMs,
            ':limit': limit,
            ':paced': nowMs - minIntervalMs,
            ':expires': Math.floor(nowMs / 1000) + 2 * 86_400,
          },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { ok: true, used: Number(Attributes?.used ?? 1) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The item as the condition saw it (raw attribute values); read it when the endpoint omits it.
      const raw = error.Item as Record<string, { N?: string }> | undefined;
      const usage = raw
        ? { used: Number(raw.used?.N ?? 0), last_call_ms: Number(raw.last_call_ms?.N ?? 0) }
        : await this.quotaUsage(connector, day);
      const used = usage.used;
      if (used >= limit) return { ok: false, reason: 'exhausted', used };
      const last = usage.last_call_ms ?? 0;
      return { ok: false, reason: 'paced', waitMs: Math.max(1, last + minIntervalMs - nowMs) };
    }
  }

  async quotaUsage(connector: string, day: string): Promise<QuotaUsage> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: quotaKey(connector, day) }),
    );
    return {
      used: Number(Item?.used ?? 0),
      ...(Item?.last_call_ms ? { last_call_ms: Number(Item.last_call_ms) } : {}),
    };
  }

  async circuit(connector: string): Promise<CircuitState | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: circuitKey(connector) }),
    );
    if (!Item) return undefined;
    return {
      failures: Number(Item.failures ?? 0),
      ...(Item.opened_until ? { opened_until: Number(Item.opened_until) } : {}),
      ...(Item.last_error_at ? { last_error_at: String(Item.last_error_at) } : {}),
      ...(Item.last_error ? { last_error: String(Item.last_error) } : {}),
    };
  }

  /** One more consecutive failure; returns the new count. */
  async recordFailure(connector: string, at: string, error: string): Promise<number> {
    const { Attributes } = await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: circuitKey(connector),
        UpdateExpression: 'ADD failures :one SET last_error_at = :at, last_error = :error',
        ExpressionAttributeValues: { ':one': 1, ':at': at, ':error': error.slice(0, 200) },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.failures ?? 1);
  }

  async openCircuit(connector: string, untilMs: number): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: circuitKey(connector),
        UpdateExpression: 'SET opened_until = :until',
        ExpressionAttributeValues: { ':until': untilMs },
      }),
    );
  }

  /** Closes the circuit; the last error time stays for the admin view. */
  async closeCircuit(connector: string): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: circuitKey(connector),
        UpdateExpression: 'SET failures = :zero REMOVE opened_until',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
  }
}

export function intelRepositoryFromConfig(cfg: Config, doc = documentClientFor(cfg)): IntelRepository {
  return new IntelRepository(doc, tableName(cfg, 'intel'));
}
