import { setTimeout as pause } from 'node:timers/promises';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { expiredItem, live } from '../retention/retention-ttl';
import { historyItem, lastSeqOf, toHistory, withNextSlots } from './history-items';
import { HISTORY, HISTORY_SEQ, historySk, META, sessionKey, toSession } from './keys';
import type { HistoryEntry, PollPage } from './records';

/**
 * A session's numbered history (sk H#<seq>) and the poll that pages through it.
 *
 * Because META sorts last, "history after the cursor, then the session" is ONE key range
 * (`sk BETWEEN H#<next seq> AND META`), so a poll is one Query; a second request (GetItem META) is
 * made only when that page is cut short by its limit. The report lives outside that range, so a poll
 * never pays to read it; META carries its verdict and risk score (`report_summary`) for the poll's
 * session summary.
 *
 * The poll reads eventually consistent (half the read units of a strongly consistent read) and falls
 * back to a consistent read when it finds no session at all (just created, not yet on the replica it
 * asked). A lagging replica can only answer with an earlier state: each partition's writes reach a
 * replica in commit order, and slot n is written only after slot n-1 committed, so a page never has
 * a gap and the next poll continues from its last item. The exception is a status transition: its
 * transaction writes META with history items (a terminal one that publishes deferred tool calls,
 * several), which a Query (read-committed only against transactions) may see in part while it
 * commits; META names the transition's last entry (`history_seq`) and the poll reads a page that
 * misses any of them again (readPage).
 */

/** How long the poll waits before each consistent re-read of a page that misses history (readPage). */
const GAP_REREAD_PAUSES_MS = [25, 100];

/**
 * Whether a page leaves out history it should hold: the first item must start right after the
 * cursor (at 1 without one), each next one right after the last entry of the one before, and META,
 * when the page reaches it, must not name a later entry than the page holds (`history_seq`, written
 * with the transition's own history items).
 */
function missesHistory(items: Record<string, unknown>[], afterSeq: number | undefined): boolean {
  let next = (afterSeq ?? 0) + 1;
  for (const item of items) {
    if (item.sk === META) return typeof item[HISTORY_SEQ] === 'number' && item[HISTORY_SEQ] >= next;
    if (!String(item.sk).startsWith(HISTORY)) continue;
    if (Number(String(item.sk).slice(HISTORY.length)) !== next) return true;
    next = lastSeqOf(item) + 1;
  }
  return false;
}

export class HistoryRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Appends history entries in order; returns their sequence numbers. */
  async append(sessionId: string, entries: HistoryEntry[]): Promise<number[]> {
    if (entries.length === 0) return [];
    return withNextSlots(this.doc, this.tableName, sessionId, entries.length, async (first) => {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: historyItem(sessionId, first, entries),
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
    });
  }

  /**
   * The poll: history items with seq > afterSeq (all when undefined) and the session record, in
   * one Query; a GetItem follows only when the page was cut before reaching META.
   */
  async readPage(sessionId: string, afterSeq: number | undefined, pageSize: number): Promise<PollPage> {
    const { pk } = sessionKey(sessionId);
    const from = afterSeq === undefined ? HISTORY : historySk(afterSeq + 1);
    const query = (consistent: boolean) =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :meta',
          ExpressionAttributeValues: { ':pk': pk, ':from': from, ':meta': META },
          ConsistentRead: consistent,
          Limit: pageSize + 1,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
    let page: QueryCommandOutput = await query(false);
    let consumed = page.ConsumedCapacity?.CapacityUnits ?? 0;
    let requests = 1;
    if (page.Items?.at(-1)?.sk !== META && page.LastEvaluatedKey === undefined) {
      // No session on the replica asked: unknown, or created a moment ago. Only a consistent read can tell.
      page = await query(true);
      requests += 1;
      consumed += page.ConsumedCapacity?.CapacityUnits ?? 0;
    }
    // A Query is only read-committed against a transaction: it may see some items of one still
    // committing and not others. A status transition writes META with its history items, a terminal
    // one several of them at once (a rules run's deferred tool calls, then its own), so a page can
    // show a later item without an earlier one, whose entries its cursor would then skip for good,
    // or the final status without the history that ends it, after which a client stops polling:
    // read again, consistently, a moment later. What stays missing (never written so by this code)
    // is returned as it is after two re-reads.
    for (const wait of GAP_REREAD_PAUSES_MS) {
      if (!missesHistory(page.Items ?? [], afterSeq)) break;
      await pause(wait);
      page = await query(true);
      requests += 1;
      consumed += page.ConsumedCapacity?.CapacityUnits ?? 0;
    }
    // Every item of a session carries the session's TTL: past it, the session and its history read
    // as gone before DynamoDB deletes them.
    const now = Date.now();
    const items = (page.Items ?? []).filter((item) => !expiredItem(item, now));
    const last = items.at(-1);
    let session = last?.sk === META ? toSession(last) : undefined;
    const history = items
      .filter((item) => item.sk !== META)
      .flatMap(toHistory)
      // A cursor always ends on an item's last entry; this only guards a cursor that does not.
      .filter((entry) => afterSeq === undefined || entry.seq > afterSeq);
    const truncated = session === undefined && page.LastEvaluatedKey !== undefined;
    if (truncated) {
      const meta = await this.doc.send(
        new GetCommand({
          TableName: this.tableName,
          Key: sessionKey(sessionId),
          ConsistentRead: true,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      requests += 1;
      consumed += meta.ConsumedCapacity?.CapacityUnits ?? 0;
      session = toSession(live(meta.Item, now));
    }
    return { session, history, truncated, requests, consumedReadUnits: consumed };
  }
}
