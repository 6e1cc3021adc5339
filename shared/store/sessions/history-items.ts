import { setTimeout as pause } from 'node:timers/promises';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { cancellationCodes, isSingleWriteConditionFailure } from '../condition-failures';
import { sessionTtl } from '../retention/retention-ttl';
import { HISTORY, historySk, MAX_SEQ, sessionKey } from './keys';
import type { HistoryEntry, HistoryItem } from './records';
import { PACK_MIN_BYTES, unpacked } from './report-packing';

/**
 * History items and how a writer claims their sequence numbers (the repositories that write history
 * with their own items call `withNextSlots`: history, status transitions, tool results, analyst state).
 *
 * History sequence numbers are gap-free and become visible in order: a writer reads the last
 * sequence number (consistently) and claims the next ones with ONE conditional put of one item
 * holding all its entries (`n` of them, numbered from the item's key on), retrying when a concurrent
 * writer took that key first. DynamoDB bills a write per item (1 unit per KB), so a step's three or
 * four entries in one item cost one unit where one item each cost three or four, and a poll reads
 * fewer, fuller items. Item n is only ever written after the item ending at n-1 exists, so a client
 * that has seen entry n has seen everything before it and a cursor never skips a late write. A poll
 * returns whole items, so a cursor always ends on an item's last entry and the next page starts at
 * an item's key. Items written before packing (one entry each: kind, at, body) read the same way.
 */
export class HistoryContentionError extends Error {
  override readonly name = 'TransientError';
}

const APPEND_ATTEMPTS = 25;

/** One history item holding `entries`, numbered from `first` on. */
export function historyItem(sessionId: string, first: number, entries: HistoryEntry[]) {
  if (first + entries.length - 1 > MAX_SEQ) throw new Error(`Session ${sessionId} history is full`);
  const list = entries.map(({ kind, at, body }) => ({ kind, at, body }));
  const json = JSON.stringify(list);
  return {
    pk: sessionKey(sessionId).pk,
    sk: historySk(first),
    n: entries.length,
    ...sessionTtl(sessionId),
    ...(json.length < PACK_MIN_BYTES ? { entries: list } : { entries_z: deflateRawSync(json) }),
  };
}

/** One history item per list of `writes`, numbered on from `first`. */
export function historyItems(sessionId: string, first: number, writes: HistoryEntry[][]) {
  let next = first;
  return writes.map((entries) => {
    const item = historyItem(sessionId, next, entries);
    next += entries.length;
    return item;
  });
}

/** The entries of one history item, each with its sequence number. */
export function toHistory(item: Record<string, unknown>): HistoryItem[] {
  const first = Number(String(item.sk).slice(HISTORY.length));
  const zipped = item.entries_z;
  const entries = (
    zipped instanceof Uint8Array ? JSON.parse(inflateRawSync(zipped).toString('utf8')) : item.entries
  ) as HistoryEntry[] | undefined;
  if (!entries) {
    // One entry per item (the layout before packing).
    return [
      {
        seq: first,
        kind: item.kind,
        at: String(item.at),
        body: unpacked(item, 'body') ?? {},
      } as HistoryItem,
    ];
  }
  return entries.map(
    (entry, i) => ({ seq: first + i, kind: entry.kind, at: entry.at, body: entry.body ?? {} }) as HistoryItem,
  );
}

/** Sequence number of the last entry of a history item (read with only `sk` and `n`). */
export const lastSeqOf = (item: Record<string, unknown>) =>
  Number(String(item.sk).slice(HISTORY.length)) + (typeof item.n === 'number' ? item.n : 1) - 1;

async function lastSeq(doc: DynamoDBDocumentClient, tableName: string, sessionId: string): Promise<number> {
  const { Items } = await doc.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :history)',
      ExpressionAttributeValues: { ':pk': sessionKey(sessionId).pk, ':history': HISTORY },
      ProjectionExpression: 'sk, #n',
      ExpressionAttributeNames: { '#n': 'n' },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const last = Items?.[0];
  return last ? lastSeqOf(last) : 0;
}

/**
 * Whether a write failed only because another writer claimed one of its history slots (the history
 * puts are the last actions; a refused condition on one of the `leadingActions` before them, such as
 * a status update, is not a slot clash).
 */
function historySlotTaken(error: unknown, leadingActions: number): boolean {
  const codes = cancellationCodes(error);
  if (codes === undefined) return isSingleWriteConditionFailure(error);
  if (codes.slice(0, leadingActions).includes('ConditionalCheckFailed')) return false;
  return codes.some(
    (code, i) => (code === 'ConditionalCheckFailed' && i >= leadingActions) || code === 'TransactionConflict',
  );
}

/**
 * Runs `write(firstSeq)` for the next free history slot (its item holds `count` entries); when a
 * concurrent writer claimed it first (the history put's condition failed), reads the last sequence
 * number again and retries. A failure of anything else is rethrown unchanged.
 */
export async function withNextSlots(
  doc: DynamoDBDocumentClient,
  tableName: string,
  sessionId: string,
  count: number,
  write: (first: number) => Promise<void>,
  leadingActions = 0,
): Promise<number[]> {
  for (let attempt = 1; attempt <= APPEND_ATTEMPTS; attempt++) {
    const first = (await lastSeq(doc, tableName, sessionId)) + 1;
    try {
      await write(first);
      return Array.from({ length: count }, (_, i) => first + i);
    } catch (error) {
      const slotTaken = historySlotTaken(error, leadingActions);
      if (!slotTaken) throw error;
      await pause(Math.random() * 10 * attempt);
    }
  }
  throw new HistoryContentionError(`Could not append to the history of session ${sessionId}`);
}

type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/**
 * Writes `actions` and one history item holding `history` in the next free slots, in one
 * transaction (the history put last, so the cancellation reasons of `actions` come first).
 */
export function writeWithHistory(
  doc: DynamoDBDocumentClient,
  tableName: string,
  sessionId: string,
  history: HistoryEntry[],
  actions: TransactItem[],
): Promise<number[]> {
  return withNextSlots(
    doc,
    tableName,
    sessionId,
    history.length,
    async (first) => {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            ...actions,
            {
              Put: {
                TableName: tableName,
                Item: historyItem(sessionId, first, history),
                ConditionExpression: 'attribute_not_exists(sk)',
              },
            },
          ],
        }),
      );
    },
    actions.length,
  );
}
