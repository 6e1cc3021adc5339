import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { SessionStatus } from '../domain/core/session-status';
import { isTerminal, statusesBefore } from '../domain/core/session-status';
import type { WorkflowType } from '../domain/investigation/workflow-type';
import { consistentBatchGet } from './consistent-batch-get';
import { GSI1 } from './tables';

/**
 * Sessions and their history, in the sessions table (key design in docs/workflow.md):
 *
 *   pk SESSION#<id>   sk D#TOOL#<tool>   persisted tool result (raw output), read by the Assess step; a
 *                                         deferred one also holds its history entries until the
 *                                         session's terminal transition publishes them
 *                     sk D#ATOOL#<tool use id>  result of a tool the analyst model requested (bedrock mode)
 *                     sk D#ANALYST       the analyst's conversation state between model turns (bedrock mode)
 *                     sk H#<seq 6 digits> history: the entries (message | event | tool_call) one write
 *                                         committed, in order; seq is the first entry's number
 *                     sk META            the session record; sorts after every history item
 *                     sk META#REPORT     the report of a completed session (sorts right after META)
 *                     sk OPEN            open marker: exists while the session is not terminal and
 *                                         carries its gsi1 entry (sorts after META#REPORT, outside
 *                                         the poll's and get's key ranges)
 *   pk IDEMP#<keyId>#<key>  sk IDEMP     Idempotency-Key record of a start request (TTL 24 h)
 *   pk SUBJECT#<type>#<value>  sk <created_at>#<session_id>   verdict of a completed session on
 *                     that entity (any owner: prior verdicts are tenant knowledge for the tools); keyed
 *                     by the session's creation, the same on every attempt, so a repeated Persist
 *                     rewrites its one verdict (items written before are keyed by completed_at)
 *
 * Because META sorts last, "history after the cursor, then the session" is ONE key range
 * (`sk BETWEEN H#<next seq> AND META`), so a poll is one Query; a second request (GetItem META) is
 * made only when that page is cut short by its limit. The report lives outside that range, so a poll
 * never pays to read it; META carries its verdict and risk score (`report_summary`) for the poll's
 * session summary, and `get` reads META and the report together (`sk BETWEEN META AND META#REPORT`).
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
 *
 * While a session is not terminal its open marker (sk OPEN) carries gsi1pk OPEN (a sparse index), so
 * the stale-session sweeper and the local runtime find sessions left open with a Query. The marker,
 * not META, is in the index because with gsi1 on META every status transaction (initialized →
 * active, active → completed) also wrote the index entry (projection ALL): one more write on AWS,
 * and DynamoDB Local meters a transaction that writes an index entry 12 units instead of 4. Now a
 * status transaction writes no index entry; the marker is put before
 * anything else of the session exists and deleted after the terminal transition committed. A crash
 * between two of those writes leaves a marker without META or a marker of an ended session: the
 * readers check every marker against META (consistently) and delete those two kinds. Sessions
 * created before the marker carry gsi1pk on META itself; the readers list them as before and the
 * terminal transition still REMOVEs the attributes (on a META without them this writes no index
 * entry: the transaction meters 4).
 */
export interface SessionOptions {
  background: boolean;
  include_tool_calls: boolean;
  include_raw_results: boolean;
  /** Skip the intelligence connectors' cache for this investigation (fresh lookups). */
  refresh_intel?: boolean;
}

export interface SessionRecord {
  session_id: string;
  run_id: string;
  owner_key_id: string;
  entity: { type: string; value: string };
  persona: string;
  status: SessionStatus;
  created_at: string;
  updated_at: string;
  started_at?: string;
  completed_at?: string;
  failure_reason?: string;
  report?: Record<string, unknown>;
  /** TLP 2.0 level of the investigation (absent on sessions recorded before TLP: amber). */
  tlp?: string;
  /** The report's verdict and risk score, kept on META for the poll (which does not read the report). */
  report_summary?: { verdict?: unknown; risk_score?: unknown };
  options: SessionOptions;
  /** The state machine its run was started on (absent on sessions from before Express: Standard). */
  workflow?: WorkflowType;
}

export type HistoryKind = 'message' | 'event' | 'tool_call';

export interface HistoryEntry {
  kind: HistoryKind;
  /** ISO time the entry describes. */
  at: string;
  body: Record<string, unknown>;
}

export interface HistoryItem extends HistoryEntry {
  seq: number;
}

export interface ToolResultRecord {
  tool: string;
  /** The recorded tool call (status, timings, summary). */
  call: Record<string, unknown>;
  /** Full tool output, for the report and include_raw_results. */
  raw?: unknown;
  raw_truncated?: boolean;
}

export interface IdempotencyRecord {
  owner_key_id: string;
  idempotency_key: string;
  session_id: string;
  request_hash: string;
  created_at: string;
  expires_at_epoch: number;
}

export interface SubjectVerdict {
  session_id: string;
  verdict: string;
  risk_score: number;
  completed_at: string;
}

export interface PollPage {
  session: SessionRecord | undefined;
  history: HistoryItem[];
  /** More history exists after the last item returned. */
  truncated: boolean;
  /** DynamoDB requests made and read capacity consumed, for cost tracking. */
  requests: number;
  consumedReadUnits: number;
}

export type TransitionResult =
  | { ok: true; session: SessionRecord }
  | { ok: false; session: SessionRecord | undefined };

export class HistoryContentionError extends Error {
  override readonly name = 'TransientError';
}

const META = 'META';
const REPORT = 'META#REPORT';
const HISTORY = 'H#';
const TOOL_RESULT = 'D#TOOL#';
const REQUESTED_TOOL_RESULT = 'D#ATOOL#';
const ANALYST = 'D#ANALYST';
/** A requested tool's result key: not under D#TOOL#, so the rules engine's scoring never reads it. */
const toolResultSk = (tool: string, requestedId?: string) =>
  requestedId === undefined ? `${TOOL_RESULT}${tool}` : `${REQUESTED_TOOL_RESULT}${requestedId}`;
const SEQ_DIGITS = 6;
const MAX_SEQ = 10 ** SEQ_DIGITS - 1;
const APPEND_ATTEMPTS = 25;
const OPEN = 'OPEN';
const OPEN_MARKER = 'OPEN';
/**
 * A marker without META younger than this may belong to a creation still under way (the marker is
 * written first), so readers leave it; an older one is what a crashed creation left.
 */
const ORPHAN_MARKER_GRACE_MS = 10 * 60_000;

const sessionKey = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: META });
const historySk = (seq: number) => `${HISTORY}${String(seq).padStart(SEQ_DIGITS, '0')}`;
const subjectPk = (subject: { type: string; value: string }) => `SUBJECT#${subject.type}#${subject.value}`;
const idempotencyKey = (keyId: string, key: string) => ({ pk: `IDEMP#${keyId}#${key}`, sk: 'IDEMP' });

/** On META: the last history entry the latest status transition wrote with it (readPage). */
const HISTORY_SEQ = 'history_seq';
const STORE_ONLY = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'expires_at_epoch', HISTORY_SEQ]);
const reportKey = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: REPORT });
const openMarkerKey = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: OPEN_MARKER });

function toSession(item: Record<string, unknown> | undefined): SessionRecord | undefined {
  if (!item) return undefined;
  return Object.fromEntries(
    Object.entries(item).filter(([k]) => !STORE_ONLY.has(k)),
  ) as unknown as SessionRecord;
}

/**
 * Large JSON values (tool calls with their findings, reports) are stored deflated in a binary
 * attribute: DynamoDB bills reads per 4 KB and writes per 1 KB of item, and JSON of this kind
 * deflates to about half. Small ones stay plain (deflate gains nothing on a 200-byte event).
 */
const PACK_MIN_BYTES = 400;

/**
 * zlib's preset dictionary for reports: a report's field names, fixed values and scoring formula,
 * so deflate can refer back to them from its first byte. A report is 2-3 KB of JSON that deflates
 * to 0.8-1.1 KB alone and to 0.5-0.8 KB with this: its item stays under 1 KB, one write unit (two
 * in the completing transaction) where about half the reports took two (four). It is a hint: any
 * report round-trips. Reports packed with it say so by their attribute (`report_zd1`), so this
 * text must never change; a better dictionary is a new version beside it (the digest is pinned in
 * test/integration/sessions-repository.test.ts).
 */
export const REPORT_DICTIONARY_V1 = /* @__PURE__ */ Buffer.from(
  '"severity":"low","severity":"medium","severity":"high","severity":"critical","category":"threat",' +
    '"verdict":"suspicious","verdict":"malicious","role":"related",' +
    '"contributions":[{"finding_id":"","title":"","source_tool":"","score":,"points":}],' +
    '"sources":[{"source_tool":"","findings":1,"alone":,"points":}]' +
    '{"summary":"","risk_score":,"verdict":"benign","persona":"SOC Analyst",' +
    '"entities":[{"type":"ip","value":"","role":"investigated"}],' +
    '"findings":[{"finding_id":"","title":"","description":"","impact":"","severity":"info","score":0,' +
    '"source_tool":"","category":"context","evidence":[]}],"recommendations":[""],' +
    '"coverage":{"tools_run":4,"tools_succeeded":4,"tools_failed":[],"tools_timed_out":[]},' +
    '"score_explanation":{"method":"noisy_or","formula":"risk = round(100 × (1 − Π (1 − score_i / 100)))",' +
    '"risk_score":0,"verdict":"benign","verdict_reason":"risk 0 < 30 and 4 of 4 tools succeeded → benign",' +
    '"contributions":[],"sources":[]}}',
);
const DICTIONARIES: Record<string, { suffix: string; dictionary: Buffer }> = {
  report: { suffix: '_zd1', dictionary: REPORT_DICTIONARY_V1 },
};

function packed(name: string, value: Record<string, unknown>): Record<string, unknown> {
  const json = JSON.stringify(value);
  if (json.length < PACK_MIN_BYTES) return { [name]: value };
  const preset = DICTIONARIES[name];
  if (preset) return { [`${name}${preset.suffix}`]: deflateRawSync(json, { dictionary: preset.dictionary }) };
  return { [`${name}_z`]: deflateRawSync(json) };
}

function unpacked(item: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const preset = DICTIONARIES[name];
  const withDictionary = preset ? item[`${name}${preset.suffix}`] : undefined;
  if (preset && withDictionary instanceof Uint8Array) {
    return JSON.parse(inflateRawSync(withDictionary, { dictionary: preset.dictionary }).toString('utf8'));
  }
  const zipped = item[`${name}_z`];
  if (zipped instanceof Uint8Array) return JSON.parse(inflateRawSync(zipped).toString('utf8'));
  return item[name] as Record<string, unknown> | undefined;
}

function toolResultItem(result: ToolResultRecord): Record<string, unknown> {
  const { call, ...rest } = result;
  return { ...rest, ...packed('call', call) };
}

/**
 * A deferred result's call and history entries are packed together: deflate finds the call again
 * inside its tool_call entry, so the item is about as large as the history item alone.
 */
interface DeferredToolResult {
  call: Record<string, unknown>;
  history: HistoryEntry[];
}

const DEFERRED = 'deferred';

function deferredOf(item: Record<string, unknown>): DeferredToolResult | undefined {
  return unpacked(item, DEFERRED) as unknown as DeferredToolResult | undefined;
}

function toToolResult(item: Record<string, unknown>): ToolResultRecord {
  const {
    pk: _pk,
    sk: _sk,
    call: _call,
    call_z: _callZ,
    [DEFERRED]: _deferred,
    [`${DEFERRED}_z`]: _deferredZ,
    ...rest
  } = item;
  return { ...rest, call: deferredOf(item)?.call ?? unpacked(item, 'call') ?? {} } as ToolResultRecord;
}

/** The entries of one history item, each with its sequence number. */
function toHistory(item: Record<string, unknown>): HistoryItem[] {
  const first = Number(String(item.sk).slice(HISTORY.length));
  const zipped = item.entries_z;
  const entries = (
    zipped instanceof Uint8Array ? JSON.parse(inflateRawSync(zipped).toString('utf8')) : item.entries
  ) as HistoryEntry[] | undefined;
  if (!entries) {
    // One entry per item (the layout before packing).
    return [
      { seq: first, kind: item.kind as HistoryKind, at: String(item.at), body: unpacked(item, 'body') ?? {} },
    ];
  }
  return entries.map((entry, i) => ({
    seq: first + i,
    kind: entry.kind,
    at: entry.at,
    body: entry.body ?? {},
  }));
}

/** Sequence number of the last entry of a history item (read with only `sk` and `n`). */
const lastSeqOf = (item: Record<string, unknown>) =>
  Number(String(item.sk).slice(HISTORY.length)) + (typeof item.n === 'number' ? item.n : 1) - 1;

function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException;
}

/** The reason codes of a cancelled transaction, one per action. */
function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/**
 * Whether a write failed only because another writer claimed one of its history slots (the history
 * puts are the last actions; a refused condition on one of the `leadingActions` before them, such as
 * a status update, is not a slot clash).
 */
function historySlotTaken(error: unknown, leadingActions: number): boolean {
  const codes = cancellationCodes(error);
  if (codes === undefined) return isConditionFailure(error);
  if (codes.slice(0, leadingActions).includes('ConditionalCheckFailed')) return false;
  return codes.some(
    (code, i) => (code === 'ConditionalCheckFailed' && i >= leadingActions) || code === 'TransactionConflict',
  );
}

const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

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
    const meta = { ...sessionKey(session.session_id), ...session };
    const marker = {
      ...openMarkerKey(session.session_id),
      gsi1pk: OPEN,
      gsi1sk: `${session.created_at}#${session.session_id}`,
      session_id: session.session_id,
      created_at: session.created_at,
    };
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
            Item: this.historyItem(session.session_id, 1, history),
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
      ...(record
        ? [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...idempotencyKey(record.owner_key_id, record.idempotency_key), ...record },
                // DynamoDB deletes expired items lazily (up to days later): expired counts as absent.
                ConditionExpression: 'attribute_not_exists(pk) OR expires_at_epoch < :now',
                ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
              },
            },
          ]
        : []),
      { Put: { TableName: this.tableName, Item: meta, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(history.length > 0
        ? [{ Put: { TableName: this.tableName, Item: this.historyItem(session.session_id, 1, history) } }]
        : []),
      { Put: { TableName: this.tableName, Item: marker } },
    ];
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: actions }));
      return { created: true };
    } catch (error) {
      if (cancellationCodes(error)?.[0] !== 'ConditionalCheckFailed') throw error;
      const existing = await this.getIdempotency(record.owner_key_id, record.idempotency_key);
      if (!existing) throw error;
      return { created: false, existing };
    }
  }

  async getIdempotency(keyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: idempotencyKey(keyId, key), ConsistentRead: true }),
    );
    if (!Item || Number(Item.expires_at_epoch) < Math.floor(Date.now() / 1000)) return undefined;
    const { pk: _pk, sk: _sk, ...record } = Item;
    return record as IdempotencyRecord;
  }

  async deleteIdempotency(keyId: string, key: string, sessionId: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: idempotencyKey(keyId, key),
          ConditionExpression: 'session_id = :session',
          ExpressionAttributeValues: { ':session': sessionId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** The session record with its report (one Query over META and META#REPORT). */
  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const { pk } = sessionKey(sessionId);
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :meta AND :report',
        ExpressionAttributeValues: { ':pk': pk, ':meta': META, ':report': REPORT },
        ConsistentRead: true,
      }),
    );
    const meta = Items?.find((item) => item.sk === META);
    const report = Items?.find((item) => item.sk === REPORT);
    const session = toSession(meta);
    if (session && report) session.report = unpacked(report, 'report');
    return session;
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
    const items = page.Items ?? [];
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
      session = toSession(meta.Item);
    }
    return { session, history, truncated, requests, consumedReadUnits: consumed };
  }

  /** Appends history entries in order; returns their sequence numbers. */
  async append(sessionId: string, entries: HistoryEntry[]): Promise<number[]> {
    if (entries.length === 0) return [];
    return this.withNextSlots(sessionId, entries.length, async (first) => {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: this.historyItem(sessionId, first, entries),
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
    });
  }

  /**
   * Moves the session to `to` if its current status allows it (session-status.ts), together with
   * `set` fields and history entries, in one transaction. A terminal move also publishes the history
   * of the deferred tool results (recordToolResultDeferred), before its own entries and in the same
   * transaction, so every tool call recorded before the end read them is in the history of every
   * outcome (one recorded between that read and the commit keeps its result but is not published).
   * After a terminal move commits, the open marker is deleted. Returns ok:false with the current
   * record when the status did not allow the move.
   */
  async transition(
    sessionId: string,
    to: SessionStatus,
    set: Partial<Omit<SessionRecord, 'session_id' | 'status' | 'owner_key_id'>> = {},
    history: HistoryEntry[] = [],
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
              Item: { ...reportKey(sessionId), ...packed('report', report) },
            },
          },
        ]
      : [];
    const writes = [...(isTerminal(to) ? await this.deferredToolHistory(sessionId) : []), history].filter(
      (entries) => entries.length > 0,
    );
    /** The record as the update returned it; after a transaction it is read back. */
    let updated: SessionRecord | undefined;
    try {
      if (writes.length === 0 && !report) {
        const { Attributes } = await this.doc.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
        updated = toSession(Attributes);
      } else if (writes.length === 0) {
        await this.doc.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...reportPut] }));
      } else {
        const count = writes.reduce((total, entries) => total + entries.length, 0);
        await this.withNextSlots(
          sessionId,
          count,
          async (first) => {
            await this.doc.send(
              new TransactWriteCommand({
                TransactItems: [
                  { Update: withHistorySeq(update, first + count - 1) },
                  ...reportPut,
                  ...this.historyItems(sessionId, first, writes).map((Item) => ({
                    Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(sk)' },
                  })),
                ],
              }),
            );
          },
          1 + reportPut.length,
        );
      }
    } catch (error) {
      const statusRefused =
        isConditionFailure(error) || cancellationCodes(error)?.[0] === 'ConditionalCheckFailed';
      if (!statusRefused) throw error;
      return { ok: false, session: await this.get(sessionId) };
    }
    const [session] = await Promise.all([
      updated ?? this.get(sessionId),
      isTerminal(to) ? this.deleteOpenMarker(sessionId) : undefined,
    ]);
    return { ok: true, session: session! };
  }

  /**
   * Deletes the open marker of a session that has ended. The transition has committed by then: a
   * failure here must not make its caller believe otherwise (a retried step would find the session
   * ended and skip what follows), so it is left to the readers, which delete a marker whose META is
   * terminal.
   */
  private async deleteOpenMarker(sessionId: string): Promise<void> {
    try {
      await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: openMarkerKey(sessionId) }));
    } catch {
      // Left for the readers (see above).
    }
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
    await Promise.all(stale.map((sessionId) => this.deleteOpenMarker(sessionId)));
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

  /**
   * Sessions still initialized or active, oldest first (sparse gsi1, eventually consistent; a
   * session found by its open marker is checked against its META, read consistently).
   */
  async listOpen(limit = 100): Promise<SessionRecord[]> {
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
  async listOpenCreatedBefore(
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
   * Records a completed session's verdict under its subject; idempotent per session: the key is the
   * session's creation time (`createdAt`) and ID, which every attempt of the step (a retry, an
   * Express redelivery, a duplicate execution) shares, where its completion time differs per attempt.
   */
  async recordVerdict(
    subject: { type: string; value: string },
    verdict: SubjectVerdict,
    createdAt: string,
  ): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: subjectPk(subject),
          sk: `${createdAt}#${verdict.session_id}`,
          ...verdict,
        },
      }),
    );
  }

  /** Verdicts of completed sessions on the entity, newest first. */
  async verdictsFor(subject: { type: string; value: string }, limit: number): Promise<SubjectVerdict[]> {
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': subjectPk(subject) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (Items ?? []).map(({ session_id, verdict, risk_score, completed_at }) => ({
      session_id: String(session_id),
      verdict: String(verdict),
      risk_score: Number(risk_score),
      completed_at: String(completed_at),
    }));
  }

  /**
   * Records one tool's result and its history entries together, only while the session is active
   * and only once per tool: 'recorded', or 'duplicate' when this tool's result already exists (a
   * retried step), or 'not_active' when the session is no longer active (canceled, failed).
   */
  async recordToolResult(
    sessionId: string,
    result: ToolResultRecord,
    history: HistoryEntry[],
    /** The analyst model's tool use ID, for a tool the model requested. */
    requestedId?: string,
  ): Promise<'recorded' | 'duplicate' | 'not_active'> {
    const { pk } = sessionKey(sessionId);
    try {
      await this.withNextSlots(
        sessionId,
        history.length,
        async (first) => {
          await this.doc.send(
            new TransactWriteCommand({
              TransactItems: [
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
                    Item: { pk, sk: toolResultSk(result.tool, requestedId), ...toolResultItem(result) },
                    ConditionExpression: 'attribute_not_exists(sk)',
                  },
                },
                {
                  Put: {
                    TableName: this.tableName,
                    Item: this.historyItem(sessionId, first, history),
                    ConditionExpression: 'attribute_not_exists(sk)',
                  },
                },
              ],
            }),
          );
        },
        2,
      );
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
   * appended: the session's terminal transition publishes them (`transition`). One conditional put,
   * where `recordToolResult` is a transaction with the session's status check and a history item.
   * For the tools of a run whose history nobody reads before its end: the rules analyst's tools run
   * for milliseconds, and what they find is read from the results, not from the history. A result
   * recorded after the terminal transition read the results is never published (what
   * `recordToolResult` refuses as 'not_active'), though its item stays: nothing here checks the
   * session's status. 'duplicate' when this tool's result already exists (a retried step).
   */
  async recordToolResultDeferred(
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
          },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
      return 'recorded';
    } catch (error) {
      if (isConditionFailure(error)) return 'duplicate';
      throw error;
    }
  }

  /** The history entries of the deferred tool results, one list per tool, in the order the tools started. */
  private async deferredToolHistory(sessionId: string): Promise<HistoryEntry[][]> {
    const items = await this.toolResultItems(sessionId, TOOL_RESULT, {
      FilterExpression: 'attribute_exists(#deferred) OR attribute_exists(#deferredZ)',
      ExpressionAttributeNames: { '#deferred': DEFERRED, '#deferredZ': `${DEFERRED}_z` },
    });
    return items
      .map((item) => deferredOf(item)?.history ?? [])
      .filter((history) => history.length > 0)
      .sort((a, b) => (a[0]?.at ?? '').localeCompare(b[0]?.at ?? ''));
  }

  /** Every tool result item under `prefix` (a consistent Query, page by page), optionally filtered. */
  private async toolResultItems(
    sessionId: string,
    prefix: string,
    filter?: { FilterExpression: string; ExpressionAttributeNames: Record<string, string> },
  ): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
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

  async getToolResult(
    sessionId: string,
    tool: string,
    requestedId?: string,
  ): Promise<ToolResultRecord | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: sessionKey(sessionId).pk, sk: toolResultSk(tool, requestedId) },
        ConsistentRead: true,
      }),
    );
    return Item ? toToolResult(Item) : undefined;
  }

  async listToolResults(sessionId: string, requested = false): Promise<ToolResultRecord[]> {
    const items = await this.toolResultItems(sessionId, requested ? REQUESTED_TOOL_RESULT : TOOL_RESULT);
    return items.map(toToolResult);
  }

  /** The analyst's conversation state (JSON) and its revision; undefined before the first turn. */
  async getAnalystState(sessionId: string): Promise<{ revision: number; state: string } | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: sessionKey(sessionId).pk, sk: ANALYST },
        ConsistentRead: true,
      }),
    );
    return Item ? { revision: Number(Item.revision), state: String(Item.state) } : undefined;
  }

  /**
   * Saves the conversation state after a turn together with the turn's history entries, only if the
   * stored revision is still `expectedRevision` (0: none yet). 'conflict' means another attempt of
   * the same turn committed first (a retried step): nothing is written.
   */
  async saveAnalystState(
    sessionId: string,
    state: string,
    expectedRevision: number,
    history: HistoryEntry[],
  ): Promise<'saved' | 'conflict'> {
    const { pk } = sessionKey(sessionId);
    const put = {
      TableName: this.tableName,
      Item: { pk, sk: ANALYST, revision: expectedRevision + 1, state },
      ConditionExpression: expectedRevision === 0 ? 'attribute_not_exists(sk)' : 'revision = :expected',
      ...(expectedRevision === 0 ? {} : { ExpressionAttributeValues: { ':expected': expectedRevision } }),
    };
    try {
      if (history.length === 0) {
        await this.doc.send(new PutCommand(put));
        return 'saved';
      }
      await this.withNextSlots(
        sessionId,
        history.length,
        async (first) => {
          await this.doc.send(
            new TransactWriteCommand({
              TransactItems: [
                { Put: put },
                {
                  Put: {
                    TableName: this.tableName,
                    Item: this.historyItem(sessionId, first, history),
                    ConditionExpression: 'attribute_not_exists(sk)',
                  },
                },
              ],
            }),
          );
        },
        1,
      );
      return 'saved';
    } catch (error) {
      if (isConditionFailure(error) || cancellationCodes(error)?.[0] === 'ConditionalCheckFailed')
        return 'conflict';
      throw error;
    }
  }

  /** One history item holding `entries`, numbered from `first` on. */
  private historyItem(sessionId: string, first: number, entries: HistoryEntry[]) {
    if (first + entries.length - 1 > MAX_SEQ) throw new Error(`Session ${sessionId} history is full`);
    const list = entries.map(({ kind, at, body }) => ({ kind, at, body }));
    const json = JSON.stringify(list);
    return {
      pk: sessionKey(sessionId).pk,
      sk: historySk(first),
      n: entries.length,
      ...(json.length < PACK_MIN_BYTES ? { entries: list } : { entries_z: deflateRawSync(json) }),
    };
  }

  /** One history item per list of `writes`, numbered on from `first`. */
  private historyItems(sessionId: string, first: number, writes: HistoryEntry[][]) {
    let next = first;
    return writes.map((entries) => {
      const item = this.historyItem(sessionId, next, entries);
      next += entries.length;
      return item;
    });
  }

  private async lastSeq(sessionId: string): Promise<number> {
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
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
   * Runs `write(firstSeq)` for the next free history slot (its item holds `count` entries); when a
   * concurrent writer claimed it first (the history put's condition failed), reads the last sequence
   * number again and retries. A failure of anything else is rethrown unchanged.
   */
  private async withNextSlots(
    sessionId: string,
    count: number,
    write: (first: number) => Promise<void>,
    leadingActions = 0,
  ): Promise<number[]> {
    for (let attempt = 1; attempt <= APPEND_ATTEMPTS; attempt++) {
      const first = (await this.lastSeq(sessionId)) + 1;
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
}
