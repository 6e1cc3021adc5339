import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { ToolCall } from '../../domain/core/vocabulary';
import { cancellationCodes, isSingleWriteConditionFailure } from '../condition-failures';
import { sessionTtl } from '../retention/retention-ttl';
import { writeWithHistory } from './history-items';
import { REQUESTED_TOOL_RESULT, sessionKey, TOOL_RESULT, toolResultSk } from './keys';
import type { HistoryEntry, ToolResultRecord } from './records';
import { packed, unpacked } from './report-packing';

/**
 * A session's tool results (sk D#TOOL#<tool>, and D#ATOOL#<tool use id> for a tool the analyst model
 * requested): one item per tool, written once, read by the Assess step and the analyst's turns.
 *
 * A deferred result's call and history entries are packed together: deflate finds the call again
 * inside its tool_call entry, so the item is about as large as the history item alone. The session's
 * terminal transition publishes its history (`deferredToolHistory`, session-repository.ts).
 */
interface DeferredToolResult {
  call: ToolCall;
  history: HistoryEntry[];
}

const DEFERRED = 'deferred';

function toolResultItem(result: ToolResultRecord): Record<string, unknown> {
  const { call, ...rest } = result;
  return { ...rest, ...packed('call', call) };
}

const deferredOf = (item: Record<string, unknown>) => unpacked<DeferredToolResult>(item, DEFERRED);

function toToolResult(item: Record<string, unknown>): ToolResultRecord {
  const {
    pk: _pk,
    sk: _sk,
    call: _call,
    call_z: _callZ,
    [DEFERRED]: _deferred,
    [`${DEFERRED}_z`]: _deferredZ,
    expires_at_epoch: _ttl,
    ...rest
  } = item;
  return {
    ...rest,
    call: deferredOf(item)?.call ?? unpacked<ToolCall>(item, 'call') ?? {},
  } as ToolResultRecord;
}

/** Every tool result item under `prefix` (a consistent Query, page by page), optionally filtered. */
async function toolResultItems(
  doc: DynamoDBDocumentClient,
  tableName: string,
  sessionId: string,
  prefix: string,
  filter?: { FilterExpression: string; ExpressionAttributeNames: Record<string, string> },
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await doc.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ...filter,
        ExpressionAttributeValues: { ':pk': sessionKey(sessionId).pk, ':prefix': prefix },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The history entries of the deferred tool results, one list per tool, in the order the tools started. */
export async function deferredToolHistory(
  doc: DynamoDBDocumentClient,
  tableName: string,
  sessionId: string,
): Promise<HistoryEntry[][]> {
  const items = await toolResultItems(doc, tableName, sessionId, TOOL_RESULT, {
    FilterExpression: 'attribute_exists(#deferred) OR attribute_exists(#deferredZ)',
    ExpressionAttributeNames: { '#deferred': DEFERRED, '#deferredZ': `${DEFERRED}_z` },
  });
  return items
    .map((item) => deferredOf(item)?.history ?? [])
    .filter((history) => history.length > 0)
    .sort((a, b) => (a[0]?.at ?? '').localeCompare(b[0]?.at ?? ''));
}

export class ToolResultsRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Records one tool's result and its history entries together, only while the session is active
   * and only once per tool: 'recorded', or 'duplicate' when this tool's result already exists (a
   * retried step), or 'not_active' when the session is no longer active (canceled, failed).
   */
  async record(
    sessionId: string,
    result: ToolResultRecord,
    history: HistoryEntry[],
    /** The analyst model's tool use ID, for a tool the model requested. */
    requestedId?: string,
  ): Promise<'recorded' | 'duplicate' | 'not_active'> {
    const { pk } = sessionKey(sessionId);
    try {
      await writeWithHistory(this.doc, this.tableName, sessionId, history, [
        {
          ConditionCheck: {
            TableName: this.tableName,
            Key: sessionKey(sessionId),
            ConditionExpression: '#status = :active',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':active': 'active' },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: {
              pk,
              sk: toolResultSk(result.tool, requestedId),
              ...toolResultItem(result),
              ...sessionTtl(sessionId),
            },
            ConditionExpression: 'attribute_not_exists(sk)',
          },
        },
      ]);
      return 'recorded';
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes?.[0] === 'ConditionalCheckFailed') return 'not_active';
      if (codes?.[1] === 'ConditionalCheckFailed') return 'duplicate';
      throw error;
    }
  }

  /**
   * Records one tool's result once, with its history entries kept in the result item instead of
   * appended: the session's terminal transition publishes them (SessionsRepository.transition). One
   * conditional put, where `record` is a transaction with the session's status check and a history
   * item. For the tools of a run whose history nobody reads before its end: the rules analyst's
   * tools run for milliseconds, and what they find is read from the results, not from the history.
   * A result recorded after the terminal transition read the results is never published (what
   * `record` refuses as 'not_active'), though its item stays: nothing here checks the session's
   * status. 'duplicate' when this tool's result already exists (a retried step).
   */
  async recordDeferred(
    sessionId: string,
    result: ToolResultRecord,
    history: HistoryEntry[],
  ): Promise<'recorded' | 'duplicate'> {
    const { call, ...rest } = result;
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: sessionKey(sessionId).pk,
            sk: toolResultSk(result.tool),
            ...rest,
            ...packed(DEFERRED, { call, history } satisfies DeferredToolResult),
            ...sessionTtl(sessionId),
          },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
      return 'recorded';
    } catch (error) {
      if (isSingleWriteConditionFailure(error)) return 'duplicate';
      throw error;
    }
  }

  async get(sessionId: string, tool: string, requestedId?: string): Promise<ToolResultRecord | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: sessionKey(sessionId).pk, sk: toolResultSk(tool, requestedId) },
        ConsistentRead: true,
      }),
    );
    return Item ? toToolResult(Item) : undefined;
  }

  /** The results of the planned tools, or with `requested` of the tools the analyst model asked for. */
  async list(sessionId: string, requested = false): Promise<ToolResultRecord[]> {
    const prefix = requested ? REQUESTED_TOOL_RESULT : TOOL_RESULT;
    const items = await toolResultItems(this.doc, this.tableName, sessionId, prefix);
    return items.map(toToolResult);
  }
}
