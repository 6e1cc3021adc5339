import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { isTerminal } from '../../domain/core/session-status';
import { consistentBatchGet } from '../batch-operations';
import { GSI1 } from '../tables';
import { META, OPEN, OPEN_MARKER, openMarkerKey, toSession } from './keys';
import type { SessionRecord } from './records';

/**
 * The sessions not yet ended, through their open markers. While a session is not terminal its open
 * marker (sk OPEN) carries gsi1pk OPEN (a sparse index), so the stale-session sweeper and the local
 * runtime find sessions left open with a Query. The marker, not META, is in the index because with
 * gsi1 on META every status transaction (initialized → active, active → completed) also wrote the
 * index entry (projection ALL): one more write on AWS, and DynamoDB Local meters a transaction that
 * writes an index entry 12 units instead of 4. Now a status transaction writes no index entry; the
 * marker is put before anything else of the session exists and deleted after the terminal
 * transition committed (SessionsRepository). A crash between two of those writes leaves a marker
 * without META or a marker of an ended session: the readers here check every marker against META
 * (consistently) and delete those two kinds. Sessions created before the marker carry gsi1pk on META
 * itself; the readers list them as before and the terminal transition still REMOVEs the attributes
 * (on a META without them this writes no index entry: the transaction meters 4).
 */

/**
 * A marker without META younger than this may belong to a creation still under way (the marker is
 * written first), so readers leave it; an older one is what a crashed creation left.
 */
const ORPHAN_MARKER_GRACE_MS = 10 * 60_000;

/** The open marker of a session about to be created: written before anything else of it. */
export function openMarkerOf(session: Pick<SessionRecord, 'session_id' | 'created_at' | 'owner_key_id'>) {
  return {
    ...openMarkerKey(session.session_id),
    gsi1pk: OPEN,
    gsi1sk: `${session.created_at}#${session.session_id}`,
    session_id: session.session_id,
    created_at: session.created_at,
    // Counted per owner by the running-investigations cap (start-limits-repository.ts).
    owner_key_id: session.owner_key_id,
  };
}

/**
 * Deletes the open marker of a session that has ended. The transition has committed by then: a
 * failure here must not make its caller believe otherwise (a retried step would find the session
 * ended and skip what follows), so it is left to the readers, which delete a marker whose META is
 * terminal.
 */
export async function deleteOpenMarker(
  doc: DynamoDBDocumentClient,
  tableName: string,
  sessionId: string,
): Promise<void> {
  try {
    await doc.send(new DeleteCommand({ TableName: tableName, Key: openMarkerKey(sessionId) }));
  } catch {
    // Left for the readers (see above).
  }
}

export class OpenSessionsRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Sessions still initialized or active, oldest first (sparse gsi1, eventually consistent; a
   * session found by its open marker is checked against its META, read consistently).
   */
  async list(limit = 100): Promise<SessionRecord[]> {
    const sessions: SessionRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: GSI1.indexName,
          KeyConditionExpression: 'gsi1pk = :open',
          ExpressionAttributeValues: { ':open': OPEN },
          Limit: limit - sessions.length,
          ExclusiveStartKey: start,
        }),
      );
      sessions.push(...(await this.openSessionsOf(page.Items ?? [])));
      start = page.LastEvaluatedKey;
    } while (start && sessions.length < limit);
    return sessions;
  }

  /**
   * One page of the sessions still initialized or active that were created before `cutoff` (ISO),
   * oldest first: a Query on the sparse gsi1 (eventually consistent), its sort key starting with the
   * creation time, each open marker checked against its META. `next` continues the listing; absent
   * when there is nothing more. A page may hold fewer than `limit` sessions (entries of ended
   * sessions are dropped) even when `next` is set.
   */
  async listCreatedBefore(
    cutoff: string,
    limit: number,
    start?: Record<string, unknown>,
  ): Promise<{ sessions: SessionRecord[]; next?: Record<string, unknown> }> {
    const page: QueryCommandOutput = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: GSI1.indexName,
        // gsi1sk is `<created_at>#<session_id>`: every key below the bare cutoff was created before it.
        KeyConditionExpression: 'gsi1pk = :open AND gsi1sk < :cutoff',
        ExpressionAttributeValues: { ':open': OPEN, ':cutoff': cutoff },
        Limit: limit,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    return {
      sessions: await this.openSessionsOf(page.Items ?? []),
      ...(page.LastEvaluatedKey ? { next: page.LastEvaluatedKey } : {}),
    };
  }

  /**
   * The open sessions among one page of gsi1 entries, in the page's order (oldest first). An entry
   * is an open marker, checked against its META (read consistently: the index lags, and a marker is
   * deleted only on what META says now), or, for a session created before the marker, META itself,
   * listed as the index has it (as before the marker). Markers of ended sessions, and markers
   * without META past the creation grace (a crashed creation), are deleted on the way.
   */
  private async openSessionsOf(entries: Record<string, unknown>[]): Promise<SessionRecord[]> {
    const markers = entries.filter((entry) => entry.sk === OPEN_MARKER);
    const metas = await this.getMetas(markers.map((marker) => String(marker.pk)));
    const now = Date.now();
    const stale: string[] = [];
    const sessions: SessionRecord[] = [];
    for (const entry of entries) {
      if (entry.sk === META) {
        sessions.push(toSession(entry)!);
        continue;
      }
      if (entry.sk !== OPEN_MARKER) continue;
      const session = toSession(metas.get(String(entry.pk)));
      if (session && !isTerminal(session.status)) sessions.push(session);
      // An unreadable creation time counts as old: such a marker would otherwise stay forever.
      else if (session || !(now - Date.parse(String(entry.created_at)) <= ORPHAN_MARKER_GRACE_MS)) {
        stale.push(String(entry.session_id));
      }
    }
    await Promise.all(stale.map((sessionId) => deleteOpenMarker(this.doc, this.tableName, sessionId)));
    return sessions;
  }

  /** The META items of the given partitions, by pk. */
  private async getMetas(pks: string[]): Promise<Map<string, Record<string, unknown>>> {
    const items = await consistentBatchGet(
      this.doc,
      this.tableName,
      pks.map((pk) => ({ pk, sk: META })),
    );
    return new Map(items.map((item) => [String(item.pk), item]));
  }
}
