import {
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { SessionStatus } from '../../domain/core/session-status';
import { isTerminal, statusesBefore } from '../../domain/core/session-status';
import type { WebhookDelivery } from '../../domain/webhooks/delivery';
import { batchWriteAll } from '../batch-operations';
import { cancellationCodes, isSingleWriteConditionFailure } from '../condition-failures';
import { sessionTtl } from '../retention/retention-ttl';
import { outboxPut } from '../webhooks/deliveries-repository';
import { historyItem, historyItems, withNextSlots } from './history-items';
import { idempotencyPut, readIdempotency } from './idempotency-repository';
import { HISTORY_SEQ, reportKey, sessionKey, toSession } from './keys';
import { deleteOpenMarker, openMarkerOf } from './open-sessions-repository';
import type { HistoryEntry, IdempotencyRecord, SessionRecord, TransitionResult } from './records';
import { packed } from './report-packing';
import { readSession } from './session-reader';
import { deferredToolHistory } from './tool-results-repository';

/**
 * The session record (sk META, its report under META#REPORT) and its status transitions. A status
 * transition writes META with the transition's history items in one transaction, and names on META
 * the last entry it wrote (`history_seq`), so a poll that sees the new status before all of them
 * reads again (history-repository.ts).
 */

/**
 * A status update that also names on META the last history entry its transaction writes, so a
 * poll that sees the new status before all of that transaction's history items reads again.
 */
function withHistorySeq<
  T extends {
    UpdateExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  },
>(update: T, lastSeq: number): T {
  return {
    ...update,
    UpdateExpression: update.UpdateExpression.replace(/^SET /, 'SET #historySeq = :historySeq, '),
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#historySeq': HISTORY_SEQ },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':historySeq': lastSeq },
  };
}

export class SessionsRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Creates the session (status initialized) with its first history entries and, with an
   * idempotency key, the key's record in one transaction with them. Returns the existing idempotency record
   * when the key was already used (and has not expired); nothing is written then.
   */
  async create(
    session: SessionRecord,
    history: HistoryEntry[],
    idempotency?: Omit<IdempotencyRecord, 'session_id'>,
  ): Promise<{ created: true } | { created: false; existing: IdempotencyRecord }> {
    const meta = { ...sessionKey(session.session_id), ...session, ...sessionTtl(session.session_id) };
    const marker = openMarkerOf(session);
    const record = idempotency ? { ...idempotency, session_id: session.session_id } : undefined;
    if (!record) {
      // Plain writes instead of a transaction (which bills twice per item, and three times with an
      // index entry). The open marker first, so a crash never leaves a session the sweeper cannot find;
      // then the history, so a session never exists without it. What a crash in between leaves is a
      // marker (the readers delete it) and history no META points to. Nothing reads a session before
      // its META exists.
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: marker,
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      if (history.length > 0) {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: historyItem(session.session_id, 1, history),
            ConditionExpression: 'attribute_not_exists(sk)',
          }),
        );
      }
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: meta,
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { created: true };
    }
    const actions = [
      idempotencyPut(this.tableName, record),
      { Put: { TableName: this.tableName, Item: meta, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(history.length > 0
        ? [{ Put: { TableName: this.tableName, Item: historyItem(session.session_id, 1, history) } }]
        : []),
      { Put: { TableName: this.tableName, Item: marker } },
    ];
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: actions }));
      return { created: true };
    } catch (error) {
      if (cancellationCodes(error)?.[0] !== 'ConditionalCheckFailed') throw error;
      const existing = await readIdempotency(
        this.doc,
        this.tableName,
        record.owner_key_id,
        record.idempotency_key,
      );
      if (!existing) throw error;
      return { created: false, existing };
    }
  }

  /**
   * Creates sessions started together (a batch: no idempotency key) as `create` creates each, in
   * BatchWriteItem calls phase by phase: every open marker, then every first history entry, then
   * every META, so a crash leaves what `create`'s order leaves. BatchWriteItem takes no condition:
   * the IDs are fresh (newId's 80 random bits each), so no write can replace another session's.
   */
  async createMany(sessions: readonly { session: SessionRecord; history: HistoryEntry[] }[]) {
    const put = (Item: Record<string, unknown>) => ({ PutRequest: { Item } });
    await batchWriteAll(
      this.doc,
      this.tableName,
      sessions.map(({ session }) => put(openMarkerOf(session))),
    );
    await batchWriteAll(
      this.doc,
      this.tableName,
      sessions.flatMap(({ session, history }) =>
        history.length > 0 ? [put(historyItem(session.session_id, 1, history))] : [],
      ),
    );
    await batchWriteAll(
      this.doc,
      this.tableName,
      sessions.map(({ session }) =>
        put({ ...sessionKey(session.session_id), ...session, ...sessionTtl(session.session_id) }),
      ),
    );
  }

  /** The session record with its report (one Query over META and META#REPORT). */
  get(sessionId: string): Promise<SessionRecord | undefined> {
    return readSession(this.doc, this.tableName, sessionId);
  }

  /**
   * Moves the session to `to` if its current status allows it (session-status.ts), together with
   * `set` fields and history entries, in one transaction. A terminal move also publishes the history
   * of the deferred tool results (ToolResultsRepository.recordDeferred), before its own entries and
   * in the same transaction, so every tool call recorded before the end read them is in the history
   * of every outcome (one recorded between that read and the commit keeps its result but is not
   * published). `outbox`: the webhook deliveries of the session's end, written in the same
   * transaction (deliveries-repository.ts outboxPut), so the end and its events are one write. After
   * a terminal move commits, the open marker is deleted. Returns ok:false with the current record
   * when the status did not allow the move.
   */
  async transition(
    sessionId: string,
    to: SessionStatus,
    set: Partial<Omit<SessionRecord, 'session_id' | 'status' | 'owner_key_id'>> = {},
    history: HistoryEntry[] = [],
    outbox: readonly WebhookDelivery[] = [],
  ): Promise<TransitionResult> {
    const from = statusesBefore(to);
    const now = new Date().toISOString();
    const { report, ...metaFields } = set;
    const fields: Record<string, unknown> = {
      ...metaFields,
      ...(report ? { report_summary: { verdict: report.verdict, risk_score: report.risk_score } } : {}),
      status: to,
      updated_at: set.updated_at ?? now,
    };
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const assignments = Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([name, value], i) => {
        names[`#f${i}`] = name;
        values[`:f${i}`] = value;
        return `#f${i} = :f${i}`;
      });
    from.forEach((status, i) => {
      values[`:from${i}`] = status;
    });
    names['#status'] = 'status';
    const update = {
      TableName: this.tableName,
      Key: sessionKey(sessionId),
      // The REMOVE takes a session created before the open marker (gsi1 on META) out of the index; on a
      // META without the attributes it writes no index entry (the transaction still meters 4).
      UpdateExpression: `SET ${assignments.join(', ')}${isTerminal(to) ? ' REMOVE gsi1pk, gsi1sk' : ''}`,
      ConditionExpression: `attribute_exists(pk) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };

    const reportPut = report
      ? [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...reportKey(sessionId), ...packed('report', report), ...sessionTtl(sessionId) },
            },
          },
        ]
      : [];
    // The webhook deliveries of the session's end, written with it (webhook-events.ts endOutbox).
    const outboxPuts = outbox.map((delivery) => outboxPut(this.tableName, delivery));
    const leading = [...reportPut, ...outboxPuts];
    const deferred = isTerminal(to) ? await deferredToolHistory(this.doc, this.tableName, sessionId) : [];
    const writes = [...deferred, history].filter((entries) => entries.length > 0);
    /** The record as the update returned it; after a transaction it is read back. */
    let updated: SessionRecord | undefined;
    try {
      if (writes.length === 0 && leading.length === 0) {
        const { Attributes } = await this.doc.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
        updated = toSession(Attributes);
      } else if (writes.length === 0) {
        await this.doc.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...leading] }));
      } else {
        const count = writes.reduce((total, entries) => total + entries.length, 0);
        await withNextSlots(
          this.doc,
          this.tableName,
          sessionId,
          count,
          async (first) => {
            await this.doc.send(
              new TransactWriteCommand({
                TransactItems: [
                  { Update: withHistorySeq(update, first + count - 1) },
                  ...leading,
                  ...historyItems(sessionId, first, writes).map((Item) => ({
                    Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(sk)' },
                  })),
                ],
              }),
            );
          },
          1 + leading.length,
        );
      }
    } catch (error) {
      const statusRefused =
        isSingleWriteConditionFailure(error) || cancellationCodes(error)?.[0] === 'ConditionalCheckFailed';
      if (!statusRefused) throw error;
      return { ok: false, session: await this.get(sessionId) };
    }
    const [session] = await Promise.all([
      updated ?? this.get(sessionId),
      isTerminal(to) ? deleteOpenMarker(this.doc, this.tableName, sessionId) : undefined,
    ]);
    return { ok: true, session: session! };
  }
}
