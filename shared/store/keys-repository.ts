import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import { ConflictError } from '../domain/core/errors';
import type {
  ApiKeyRecord,
  AuditEntry,
  KeyRecordWithoutSecrets,
  RotationChange,
} from '../domain/keys/key-lifecycle';
import { AUDIT_PK, auditPut, type TransactItem, transactWithAudit } from './audit-items';
import { isConditionFailure } from './condition-failures';
import { documentClientFor } from './dynamo-client';
import { expiredItem } from './retention/retention-ttl';
import { GSI1, tableName } from './tables';

/**
 * The keys table: one item per API key (pk `KEY#<keyId>`, sk `KEY`; gsi1 `KEYS` / `<created_at>#<keyId>`
 * lists all keys by creation time without a Scan) and one item per admin operation
 * (pk `AUDIT`, sk `<at>#<auditId>`), written in the same transaction as the change it records.
 *
 * Key items carry no TTL attribute: an expired key stays listed as `expired` until an operator
 * removes it. Listings project only public attributes, so hashes never leave the table for them.
 */
export type ListedKey = KeyRecordWithoutSecrets;

const KEY_SK = 'KEY';
const KEYS_INDEX_PK = 'KEYS';
/** Guard against an unbounded admin listing; far beyond any sane number of integrations. */
const MAX_LISTED_KEYS = 10_000;

const LISTED_ATTRIBUTES: readonly (keyof ListedKey)[] = [
  'key_id',
  'name',
  'description',
  'scopes',
  'role',
  'status',
  'key_prefix',
  'previous_valid_until',
  'expires_at',
  'created_at',
  'created_by',
  'updated_at',
  'last_used_at',
  'rotated_at',
  'disabled_at',
  'disabled_by',
  'rate_limit',
];

const RECORD_ATTRIBUTES: readonly (keyof ApiKeyRecord)[] = [
  ...LISTED_ATTRIBUTES,
  'secret_hash',
  'previous_secret_hash',
  'usage_identifier_key',
  'apigw_key_id',
  'usage_plan_id',
];

const keyPk = (keyId: string) => `KEY#${keyId}`;
/** Partition-key prefix of the key records, for IAM conditions (infra: the `keyNames` grant). */
export const KEY_PK_PATTERN = 'KEY#*';
/** The one attribute a `keyNames` grant may read (besides the key), never a secret hash. */
export const KEY_NAME_ATTRIBUTES = ['pk', 'sk', 'name'] as const;

function pick<T>(item: Record<string, unknown>, attributes: readonly (keyof T)[]): T {
  const out: Record<string, unknown> = {};
  for (const attribute of attributes) {
    const value = item[attribute as string];
    if (value !== undefined && value !== null) out[attribute as string] = value;
  }
  return out as T;
}

export class KeysRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The authorizer's one read per request; strongly consistent so a disable applies to the next call. */
  async get(keyId: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: { pk: keyPk(keyId), sk: KEY_SK }, ConsistentRead: true }),
    );
    return Item ? pick<ApiKeyRecord>(Item, RECORD_ATTRIBUTES) : undefined;
  }

  /**
   * The key's display name only (ProjectionExpression), so a function granted `keyNames` can read it
   * under IAM's attribute condition and never sees a hash. Undefined for an unknown key.
   */
  async nameOf(keyId: string): Promise<string | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: keyPk(keyId), sk: KEY_SK },
        ProjectionExpression: '#name',
        ExpressionAttributeNames: { '#name': 'name' },
      }),
    );
    return typeof Item?.name === 'string' ? Item.name : undefined;
  }

  private auditPut(entry: AuditEntry) {
    return auditPut(this.table, entry);
  }

  /** One change to a key and its audit entry, written together or not at all; false when its condition refused it. */
  private audited(action: TransactItem, audit: AuditEntry): Promise<boolean> {
    return transactWithAudit(this.doc, this.table, [action], audit);
  }

  async create(record: ApiKeyRecord, audit: AuditEntry): Promise<void> {
    const written = await this.audited(
      {
        Put: {
          TableName: this.table,
          Item: {
            pk: keyPk(record.key_id),
            sk: KEY_SK,
            [GSI1.partitionKey]: KEYS_INDEX_PK,
            [GSI1.sortKey]: `${record.created_at}#${record.key_id}`,
            ...record,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      audit,
    );
    if (!written) throw new ConflictError('A key with this ID already exists.');
  }

  /** Every key, oldest first, without secret hashes. */
  async list(): Promise<ListedKey[]> {
    const names = Object.fromEntries(LISTED_ATTRIBUTES.map((a, i) => [`#a${i}`, a]));
    const keys: ListedKey[] = [];
    const pages = paginateQuery(
      { client: this.doc, pageSize: 500 },
      {
        TableName: this.table,
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#gpk = :keys',
        ExpressionAttributeNames: { '#gpk': GSI1.partitionKey, ...names },
        ExpressionAttributeValues: { ':keys': KEYS_INDEX_PK },
        ProjectionExpression: Object.keys(names).join(', '),
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) keys.push(pick<ListedKey>(item, LISTED_ATTRIBUTES));
      if (keys.length >= MAX_LISTED_KEYS) break;
    }
    return keys;
  }

  /**
   * Applies a planned rotation only if the key is still active with the secret the plan replaced, so
   * two concurrent rotations cannot both hand out a secret (the loser gets 409).
   */
  async rotate(keyId: string, change: RotationChange, audit: AuditEntry): Promise<void> {
    const keepPrevious = change.previous_secret_hash !== undefined;
    const set = [
      'key_prefix = :prefix',
      'secret_hash = :hash',
      'expires_at = :expires',
      'rotated_at = :at',
      'updated_at = :at',
      ...(keepPrevious ? ['previous_secret_hash = :prevHash', 'previous_valid_until = :prevUntil'] : []),
    ];
    const update = `SET ${set.join(', ')}${keepPrevious ? '' : ' REMOVE previous_secret_hash, previous_valid_until'}`;
    const written = await this.audited(
      {
        Update: {
          TableName: this.table,
          Key: { pk: keyPk(keyId), sk: KEY_SK },
          UpdateExpression: update,
          ConditionExpression: 'attribute_exists(pk) AND #status = :active AND secret_hash = :expected',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':prefix': change.key_prefix,
            ':hash': change.secret_hash,
            ':expires': change.expires_at,
            ':at': change.rotated_at,
            ':active': 'active',
            ':expected': change.expected_secret_hash,
            ...(keepPrevious
              ? { ':prevHash': change.previous_secret_hash, ':prevUntil': change.previous_valid_until }
              : {}),
          },
        },
      },
      audit,
    );
    if (!written)
      throw new ConflictError('The key was disabled or rotated concurrently; read it again and retry.');
  }

  /** Marks an active key disabled. Returns false when the key is missing or already disabled. */
  async disable(keyId: string, at: string, actor: string, audit: AuditEntry): Promise<boolean> {
    return this.audited(
      {
        Update: {
          TableName: this.table,
          Key: { pk: keyPk(keyId), sk: KEY_SK },
          UpdateExpression:
            'SET #status = :disabled, disabled_at = :at, disabled_by = :actor, updated_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND #status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':disabled': 'disabled',
            ':active': 'active',
            ':at': at,
            ':actor': actor,
          },
        },
      },
      audit,
    );
  }

  /**
   * Records use at most once per interval: the condition makes concurrent authorizers race
   * harmlessly, and the write never creates an item for a deleted key. Returns whether it wrote.
   */
  async touchLastUsed(keyId: string, now: Date, minIntervalMs: number): Promise<boolean> {
    const threshold = new Date(now.getTime() - minIntervalMs).toISOString();
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: keyPk(keyId), sk: KEY_SK },
          UpdateExpression: 'SET last_used_at = :now',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at <= :threshold)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':threshold': threshold },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Audit records of operations that changed nothing (e.g. disabling a disabled key). */
  async appendAudit(entry: AuditEntry): Promise<void> {
    await this.doc.send(new PutCommand(this.auditPut(entry)));
  }

  /** Newest first. */
  async listAudit(limit = 100): Promise<AuditEntry[]> {
    return (await this.auditPage(limit)).entries;
  }

  /** Newest first, one page; `after` is the `next` of the previous page (`<at>#<auditId>`). */
  async auditPage(limit: number, after?: string): Promise<{ entries: AuditEntry[]; next?: string }> {
    const { Items, LastEvaluatedKey } = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :audit',
        ExpressionAttributeValues: { ':audit': AUDIT_PK },
        ScanIndexForward: false,
        Limit: limit,
        ...(after ? { ExclusiveStartKey: { pk: AUDIT_PK, sk: after } } : {}),
      }),
    );
    // A record past the audit retention is not listed, though DynamoDB may not have deleted it yet.
    const now = Date.now();
    const entries = (Items ?? [])
      .filter((item) => !expiredItem(item, now))
      .map((item) => pick<AuditEntry>(item, ['audit_id', 'at', 'action', 'key_id', 'actor', 'details']));
    return LastEvaluatedKey ? { entries, next: String(LastEvaluatedKey.sk) } : { entries };
  }
}

export function keysRepositoryFromConfig(cfg: Config, doc: DynamoDBDocumentClient = documentClientFor(cfg)) {
  return new KeysRepository(doc, tableName(cfg, 'keys'));
}
