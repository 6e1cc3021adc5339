import { ConflictError } from '../../domain/core/errors';
import { tlpOf } from '../../domain/core/tlp';
import type { Report } from '../../domain/core/vocabulary';
import { reportToStix } from '../../domain/investigation/stix';
import { assertOwner, type StartedBy, startedBy } from '../../domain/keys/ownership';
import type { Caller } from '../../domain/keys/scopes';
import { logger } from '../../observability';
import type { HistoryItem, SessionRecord } from '../../store/sessions/records';
import * as z from '../../zod';
import { deploymentCursorCodec } from '../auth/cursor-secrets';
import { type SessionContext, type SessionStores, sessionUrl } from '../sessions/session-context';

/**
 * The investigation service's reads behind the poll, report and STIX routes (public and console):
 * persisted state only, from the sessions store. They never start, resume or change anything, so
 * they need only the session context; starting and cancelling are investigations.ts.
 */

/** History items one poll returns at most; a longer history continues with next_cursor. */
export const POLL_PAGE_SIZE = 500;

// ---- Poll ----

const HistoryPosition = /* @__PURE__ */ (() => z.object({ seq: z.number().check(z.int(), z.gte(0)) }))();

function sessionSummary(session: SessionRecord, starter: StartedBy) {
  // The poll reads META only: the verdict and risk score are on it, the report is not.
  const report = session.report_summary ?? session.report;
  return {
    session_id: session.session_id,
    run_id: session.run_id,
    status: session.status,
    entity: session.entity,
    persona: session.persona,
    tlp: tlpOf(session.tlp),
    created_at: session.created_at,
    updated_at: session.updated_at,
    ...(session.completed_at ? { completed_at: session.completed_at } : {}),
    ...(session.failure_reason ? { failure_reason: session.failure_reason } : {}),
    ...(report ? { risk_score: report.risk_score, verdict: report.verdict } : {}),
    started_by: starter,
  };
}

/** Looks up a key's name, for sessions recorded before the start stored it (the console's poll). */
export interface KeyNames {
  nameOf(keyId: string): Promise<string | undefined>;
}

/**
 * Who started the session. New sessions carry the starter's name, so the poll reads nothing more; an
 * older key session polled by a console user costs one keys-table read, when `keys` is given (a key
 * polling its own session already knows its name).
 */
async function starterOf(session: SessionRecord, caller: Caller, keys: KeyNames | undefined) {
  const starter = startedBy(session, caller);
  if (starter.kind !== 'api_key' || starter.name !== null || !keys) return starter;
  try {
    return { ...starter, name: (await keys.nameOf(starter.key_id)) ?? null };
  } catch (error) {
    // A name is a courtesy: the poll answers without it rather than fail.
    logger.warn('starter name lookup failed', { session_id: session.session_id, error: error as Error });
    return starter;
  }
}

const seqId = (prefix: string, seq: number) => `${prefix}_${String(seq).padStart(6, '0')}`;

function historyView(items: HistoryItem[]) {
  const messages: unknown[] = [];
  const events: unknown[] = [];
  const toolCalls: unknown[] = [];
  for (const item of items) {
    if (item.kind === 'message') {
      messages.push({ message_id: seqId('m', item.seq), ...item.body, created_at: item.at });
    } else if (item.kind === 'event') {
      events.push({
        event_id: seqId('e', item.seq),
        type: item.body.type,
        detail: item.body.detail ?? {},
        created_at: item.at,
      });
    } else {
      toolCalls.push(item.body);
    }
  }
  return { messages, events, tool_calls: toolCalls };
}

/**
 * The public poll: persisted state only (it never starts or resumes anything), one DynamoDB Query
 * per call. `after` is the opaque next_cursor of a previous poll, bound to this session and key.
 */
export async function getSessionHistory(
  ctx: Pick<SessionStores, 'history'> & { keys?: KeyNames },
  caller: Caller,
  sessionId: string,
  after?: string,
) {
  const binding = { sessionId, keyId: caller.keyId };
  const cursors = await deploymentCursorCodec();
  const afterSeq = after ? cursors.decode(after, binding, HistoryPosition).seq : undefined;
  const page = await ctx.history.readPage(sessionId, afterSeq, POLL_PAGE_SIZE);
  const session = assertOwner(page.session, caller);
  logger.debug('poll read', {
    session_id: sessionId,
    requests: page.requests,
    consumed_read_units: page.consumedReadUnits,
  });
  const lastSeq = page.history.at(-1)?.seq ?? afterSeq;
  return {
    session: sessionSummary(session, await starterOf(session, caller, ctx.keys)),
    ...historyView(page.history),
    next_cursor: lastSeq === undefined ? null : cursors.encode({ seq: lastSeq }, binding),
    has_more: page.truncated,
  };
}

// ---- Report ----

export async function getInvestigationReport(ctx: SessionContext, caller: Caller, sessionId: string) {
  const session = assertOwner(await ctx.sessions.get(sessionId), caller);
  const report: Report | undefined = session.status === 'completed' ? session.report : undefined;
  return {
    session_id: session.session_id,
    status: session.status,
    entity: session.entity,
    persona: session.persona,
    tlp: tlpOf(session.tlp),
    report: report ?? null,
    created_at: session.created_at,
    ...(session.completed_at ? { completed_at: session.completed_at } : {}),
    ...(session.failure_reason ? { failure_reason: session.failure_reason } : {}),
  };
}

// ---- STIX export ----

/**
 * The report of the caller's own completed session as a STIX 2.1 bundle. A session without a report
 * (still running, failed or canceled) is a 409: there is nothing to export yet, or ever.
 */
export async function getInvestigationStix(ctx: SessionContext, caller: Caller, sessionId: string) {
  const session = assertOwner(await ctx.sessions.get(sessionId), caller);
  const report = session.status === 'completed' ? session.report : undefined;
  if (!report) {
    throw new ConflictError(
      `The investigation has no report to export (status ${session.status}); a STIX bundle exists once it is completed.`,
    );
  }
  return reportToStix({
    session_id: session.session_id,
    entity: session.entity,
    report,
    tlp: tlpOf(session.tlp),
    created_at: session.created_at,
    completed_at: session.completed_at ?? session.updated_at ?? session.created_at,
    session_url: sessionUrl(ctx.cfg, session.session_id),
  });
}
