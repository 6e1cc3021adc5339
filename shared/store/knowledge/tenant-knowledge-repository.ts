import {
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config';
import type { Entity } from '../../domain/core/entity';
import { ConflictError, NotFoundError } from '../../domain/core/errors';
import type { FeedbackRecord } from '../../domain/core/vocabulary';
import type { AuditEntry } from '../../domain/keys/key-lifecycle';
import type { AllowlistEntry, AllowlistType } from '../../domain/knowledge/allowlist';
import { documentClientFor } from '../dynamo-client';
import { tableName } from '../tables';

/**
 * The tenant's own knowledge (docs/tenant-knowledge.md), in the sessions table beside the verdicts
 * the investigation tools already read (the run-tool step reads it with the grant it has):
 *
 *   pk ALLOWLIST                  sk ENTRY#<entry_id>   one allowlist entry (TTL at its expiry)
 *   pk FEEDBACK#<type>#<value>    sk <session_id>       the latest feedback on a session of that entity
 *
 * Every change is written in one transaction with its audit record in the keys table's audit
 * partition (pk AUDIT, the admin audit list), which these functions may write and nothing else of
 * that table (infra/function-grants.ts `auditAppend`). An investigation only reads: one Query of the
 * allowlist partition and one of the entity's feedback partition.
 */
const ALLOWLIST_PK = 'ALLOWLIST';
const ENTRY_PREFIX = 'ENTRY#';
/** The keys table's audit partition (keys-repository.ts): the only part of that table written here. */
export const AUDIT_PK = 'AUDIT';
/** Far beyond a sane allowlist; an investigation reads at most this many entries. */
export const MAX_ALLOWLIST_ENTRIES = 5_000;
const MAX_FEEDBACK_READ = 20;

const feedbackPk = (entity: Entity) => `FEEDBACK#${entity.type}#${entity.value}`;
const entrySk = (entryId: string) => `${ENTRY_PREFIX}${entryId}`;

function isConditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConditionalCheckFailedException') return true;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (
    error.name === 'TransactionCanceledException' &&
    !!reasons?.some((r) => r.Code === 'ConditionalCheckFailed')
  );
}

function entryFromItem(item: Record<string, unknown>): AllowlistEntry {
  return {
    entry_id: String(item.entry_id),
    type: item.entry_type as AllowlistType,
    value: String(item.value),
    reason: String(item.reason),
    created_by: String(item.created_by),
    created_at: String(item.created_at),
    expires_at: typeof item.expires_at === 'string' ? item.expires_at : null,
  };
}

function feedbackFromItem(item: Record<string, unknown>): FeedbackRecord {
  return {
    session_id: String(item.session_id),
    verdict: item.verdict === 'true_positive' ? 'true_positive' : 'false_positive',
    comment: String(item.comment ?? ''),
    by: String(item.by),
    at: String(item.at),
    session_verdict: (item.session_verdict as FeedbackRecord['session_verdict']) ?? null,
    session_risk_score: typeof item.session_risk_score === 'number' ? item.session_risk_score : null,
  };
}

export class TenantKnowledgeRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly sessionsTable: string,
    private readonly keysTable: string,
  ) {}

  private auditPut(entry: AuditEntry) {
    return {
      Put: {
        TableName: this.keysTable,
        Item: { pk: AUDIT_PK, sk: `${entry.at}#${entry.audit_id}`, ...entry },
      },
    };
  }

  /**
   * Adds the entry with its audit record; ConflictError when an unexpired entry with the same ID
   * (the same type and value) exists. An expired one is replaced.
   */
  async addEntry(entry: AllowlistEntry, audit: AuditEntry): Promise<void> {
    try {
      await this.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.sessionsTable,
                Item: {
                  pk: ALLOWLIST_PK,
                  sk: entrySk(entry.entry_id),
                  entry_id: entry.entry_id,
                  entry_type: entry.type,
                  value: entry.value,
                  reason: entry.reason,
                  created_by: entry.created_by,
                  created_at: entry.created_at,
                  expires_at: entry.expires_at,
                  ...(entry.expires_at
                    ? { expires_at_epoch: Math.ceil(Date.parse(entry.expires_at) / 1000) }
                    : {}),
                },
                ConditionExpression:
                  'attribute_not_exists(sk) OR (attribute_type(expires_at, :string) AND expires_at <= :now)',
                ExpressionAttributeValues: { ':string': 'S', ':now': entry.created_at },
              },
            },
            this.auditPut(audit),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) {
        throw new ConflictError(
          `${entry.type} ${entry.value} is already on the allowlist (entry ${entry.entry_id}); remove it first to change it.`,
        );
      }
      throw error;
    }
  }

  async getEntry(entryId: string): Promise<AllowlistEntry | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.sessionsTable,
        Key: { pk: ALLOWLIST_PK, sk: entrySk(entryId) },
        ConsistentRead: true,
      }),
    );
    return Item ? entryFromItem(Item) : undefined;
  }

  /** Deletes the entry with its audit record; NotFoundError when there is none. */
  async removeEntry(entryId: string, audit: AuditEntry): Promise<void> {
    try {
      await this.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.sessionsTable,
                Key: { pk: ALLOWLIST_PK, sk: entrySk(entryId) },
                ConditionExpression: 'attribute_exists(sk)',
              },
            },
            this.auditPut(audit),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('No allowlist entry with this ID.');
      throw error;
    }
  }

  /** Every entry (expired ones too, until DynamoDB's TTL removes them), in entry ID order. */
  async listEntries(): Promise<AllowlistEntry[]> {
    const entries: AllowlistEntry[] = [];
    const pages = paginateQuery(
      { client: this.doc, pageSize: 1000 },
      {
        TableName: this.sessionsTable,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
        ExpressionAttributeValues: { ':pk': ALLOWLIST_PK, ':entry': ENTRY_PREFIX },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) entries.push(entryFromItem(item));
      if (entries.length >= MAX_ALLOWLIST_ENTRIES) break;
    }
    return entries.slice(0, MAX_ALLOWLIST_ENTRIES);
  }

  /** Records (or replaces) the feedback on a session of the entity, with its audit record. */
  async putFeedback(entity: Entity, feedback: FeedbackRecord, audit: AuditEntry): Promise<void> {
    await this.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.sessionsTable,
              Item: { pk: feedbackPk(entity), sk: feedback.session_id, ...feedback },
            },
          },
          this.auditPut(audit),
        ],
      }),
    );
  }

  /** The feedback on one session of the entity, if any. */
  async feedbackOn(entity: Entity, sessionId: string): Promise<FeedbackRecord | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.sessionsTable, Key: { pk: feedbackPk(entity), sk: sessionId } }),
    );
    return Item ? feedbackFromItem(Item) : undefined;
  }

  /** Feedback on the entity's sessions (up to 20), newest first. */
  async feedbackFor(entity: Entity): Promise<FeedbackRecord[]> {
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.sessionsTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': feedbackPk(entity) },
        Limit: MAX_FEEDBACK_READ,
      }),
    );
    return (Items ?? []).map(feedbackFromItem).sort((a, b) => b.at.localeCompare(a.at));
  }
}

export function tenantKnowledgeRepositoryFromConfig(
  cfg: Config,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
): TenantKnowledgeRepository {
  return new TenantKnowledgeRepository(doc, tableName(cfg, 'sessions'), tableName(cfg, 'keys'));
}
