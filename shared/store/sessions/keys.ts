import type { SessionRecord } from './records';

/**
 * The sessions table's items (key design in docs/workflow.md). One repository per aggregate reads and
 * writes them (this folder); this module is the only one that spells their keys.
 *
 *   pk SESSION#<id>   sk D#TOOL#<tool>   persisted tool result (raw output), read by the Assess step; a
 *                                         deferred one also holds its history entries until the
 *                                         session's terminal transition publishes them
 *                                         (tool-results-repository.ts)
 *                     sk D#ATOOL#<tool use id>  result of a tool the analyst model requested (bedrock mode)
 *                     sk D#ANALYST       the analyst's conversation state between model turns (bedrock
 *                                         mode; analyst-state-repository.ts)
 *                     sk H#<seq 6 digits> history: the entries (message | event | tool_call) one write
 *                                         committed, in order; seq is the first entry's number
 *                                         (history-items.ts, history-repository.ts)
 *                     sk META            the session record; sorts after every history item
 *                                         (session-repository.ts, session-reader.ts)
 *                     sk META#REPORT     the report of a completed session (sorts right after META;
 *                                         report-packing.ts)
 *                     sk OPEN            open marker: exists while the session is not terminal and
 *                                         carries its gsi1 entry (sorts after META#REPORT, outside
 *                                         the poll's and get's key ranges; open-sessions-repository.ts)
 *   pk IDEMP#<keyId>#<key>  sk IDEMP     Idempotency-Key record of a start request (TTL 24 h;
 *                                         idempotency-repository.ts)
 *   pk SUBJECT#<type>#<value>  sk <completed_at>#<session_id>   verdict of a completed session on
 *                     that entity (any owner: prior verdicts are tenant knowledge for the tools;
 *                     verdicts-repository.ts)
 *   pk BATCH#<id>     sk META            a batch of investigations: its owner and, per entity, its
 *                                         session or why it was not started (batch-repository.ts)
 *
 * The search index (../search-index/) keeps its postings in the same table under other partitions.
 */
export const META = 'META';
export const REPORT = 'META#REPORT';
export const HISTORY = 'H#';
export const TOOL_RESULT = 'D#TOOL#';
export const REQUESTED_TOOL_RESULT = 'D#ATOOL#';
export const ANALYST = 'D#ANALYST';
/** gsi1pk of the open markers (and of META items written before the marker). */
export const OPEN = 'OPEN';
export const OPEN_MARKER = 'OPEN';
const SEQ_DIGITS = 6;
export const MAX_SEQ = 10 ** SEQ_DIGITS - 1;

/** On META: the last history entry the latest status transition wrote with it (readPage). */
export const HISTORY_SEQ = 'history_seq';

export const sessionKey = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: META });
/** Every session's partition, as an IAM `dynamodb:LeadingKeys` pattern (infra/function-grants.ts). */
export const SESSION_PK_PATTERN = 'SESSION#*';
export const reportKey = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: REPORT });
export const openMarkerKey = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: OPEN_MARKER });
export const historySk = (seq: number) => `${HISTORY}${String(seq).padStart(SEQ_DIGITS, '0')}`;
/** A requested tool's result key: not under D#TOOL#, so the rules engine's scoring never reads it. */
export const toolResultSk = (tool: string, requestedId?: string) =>
  requestedId === undefined ? `${TOOL_RESULT}${tool}` : `${REQUESTED_TOOL_RESULT}${requestedId}`;
export const subjectPk = (subject: { type: string; value: string }) =>
  `SUBJECT#${subject.type}#${subject.value}`;
export const batchKey = (batchId: string) => ({ pk: `BATCH#${batchId}`, sk: META });
export const idempotencyKey = (keyId: string, key: string) => ({ pk: `IDEMP#${keyId}#${key}`, sk: 'IDEMP' });

const STORE_ONLY = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'expires_at_epoch', HISTORY_SEQ]);

/** The session record of a META item: its attributes without the store's own. */
export function toSession(item: Record<string, unknown> | undefined): SessionRecord | undefined {
  if (!item) return undefined;
  return Object.fromEntries(
    Object.entries(item).filter(([k]) => !STORE_ONLY.has(k)),
  ) as unknown as SessionRecord;
}
