import { perConfiguration } from '../../config';
import type { Entity } from '../../domain/core/entity';
import { DomainError } from '../../domain/core/errors';
import type { Tlp } from '../../domain/core/tlp';
import {
  type BatchEntry,
  type BatchRecord,
  batchCounts,
  batchEntities,
  batchStatus,
} from '../../domain/investigation/batch';
import { personaNamed } from '../../domain/investigation/report/persona-names';
import { assertOwner } from '../../domain/keys/ownership';
import type { Caller } from '../../domain/keys/scopes';
import { logger } from '../../observability';
import { BatchRepository } from '../../store/sessions/batch-repository';
import type { HistoryEntry, SessionRecord } from '../../store/sessions/records';
import { onSessionsTable } from '../../store/sessions-table';
import { type LifecycleContext, lifecycleContext } from '../sessions/lifecycle-context';
import { indexBatchStartedForSearchQuietly } from '../sessions/search-indexing';
import { pollHeaders, sessionUrl } from '../sessions/session-context';
import {
  dailyQuotaUsedUp,
  launch,
  newId,
  newSession,
  quotaDay,
  runningCapReached,
  runningRoom,
} from './investigations';

/**
 * Batches (docs/soar.md, "Batches"): a playbook starts an investigation of each of up to 100
 * entities in one call and follows them with one poll. Each entity is a background start of its
 * own, as startInvestigation's, counted against the key's daily quota; the running-investigations
 * cap is read once and the quota taken once for the whole batch (in entity order: the entities
 * past either are refused, rate_limited), and the sessions are written together (createMany), so
 * a batch of 100 costs a few round trips plus one StartExecution each rather than 100 starts'
 * worth. An entity that could not start is an entry with its error in the contract's codes; the
 * others run.
 */
export interface BatchContext extends LifecycleContext {
  batches: BatchRepository;
}

export const batchContext = /* @__PURE__ */ perConfiguration(
  (cfg): BatchContext => ({
    ...lifecycleContext(),
    batches: onSessionsTable(cfg, BatchRepository),
  }),
);

/** What a batch's read works with: the batches and their sessions' records, nothing to start runs. */
export const batchReadContext = /* @__PURE__ */ perConfiguration(
  (cfg): Pick<BatchContext, 'batches'> => ({ batches: onSessionsTable(cfg, BatchRepository) }),
);

export interface StartBatchInput {
  entities: readonly (string | { type?: string | null | undefined; value: unknown })[];
  persona?: string | undefined;
  tlp?: Tlp | undefined;
}

/** At most this many of a batch's StartExecution calls under way at once. */
const START_CONCURRENCY = 10;

type BatchAnswerEntry =
  | { entity: Entity; session_id: string; session_url: string }
  | { entity: Entity; error: { code: string; message: string } };

export async function startInvestigationBatch(ctx: BatchContext, caller: Caller, input: StartBatchInput) {
  const entities = batchEntities(input.entities as never);
  const persona = personaNamed(input.persona);
  const now = ctx.now();
  const room = await runningRoom(ctx, caller, now);
  const quota = await takeQuota(ctx, caller, Math.min(entities.length, room.left), now);
  const starting = entities.slice(0, quota.granted).map((entity) =>
    newSession(
      ctx,
      caller,
      {
        entity,
        persona,
        tlp: input.tlp,
        background: true,
        include_tool_calls: false,
        include_raw_results: false,
      },
      now,
    ),
  );
  const failures = await createAndLaunch(ctx, starting);
  const entries = entities.map((entity, index): BatchEntry => {
    if (index >= room.left) return { entity, error: errorOf(runningCapReached(ctx, room.running)) };
    if (index >= quota.granted) return { entity, error: errorOf(quota.usedUp!) };
    const failure = failures[index];
    return failure ? { entity, error: failure } : { entity, session_id: starting[index]!.session.session_id };
  });
  const batch: BatchRecord = {
    batch_id: newId('b', now),
    owner_key_id: caller.keyId,
    created_at: now.toISOString(),
    entries,
  };
  await ctx.batches.put(batch);
  return {
    body: { batch_id: batch.batch_id, sessions: entries.map((entry) => answerEntry(ctx, entry)) },
    headers: pollHeaders(ctx.cfg, batchPollPath(batch.batch_id)),
  };
}

/**
 * Counts the batch's first `wanted` entities against the key's daily quota in one write (as many as
 * it has left); `usedUp` is the refusal of the others.
 */
async function takeQuota(ctx: BatchContext, caller: Caller, wanted: number, now: Date) {
  const limit = ctx.cfg.SIS_DEFAULT_DAILY_INVESTIGATIONS;
  if (!ctx.limits || limit <= 0 || wanted <= 0) return { granted: wanted };
  const { day, expiresAtEpoch } = quotaDay(now);
  const granted = await ctx.limits.takeDailyStarts(caller.keyId, day, limit, wanted, expiresAtEpoch);
  return { granted, usedUp: dailyQuotaUsedUp(limit, now) };
}

type StartError = { code: string; message: string };

/**
 * Writes the sessions together (store createMany, then their open search postings), then starts
 * their runs, at most START_CONCURRENCY StartExecution calls under way. The error of each session
 * that could not start, by its index (launch has marked it failed).
 */
async function createAndLaunch(
  ctx: BatchContext,
  starting: readonly { session: SessionRecord; history: HistoryEntry[] }[],
): Promise<(StartError | undefined)[]> {
  const notStarted = { code: 'internal_error', message: 'The investigation could not be started.' };
  if (starting.length === 0) return [];
  try {
    await ctx.sessions.createMany(starting);
  } catch (error) {
    logger.error('batch sessions not created', { sessions: starting.length, error: error as Error });
    return starting.map(() => notStarted);
  }
  // Indexed before the runs start, so these first entries can never land after the steps' own.
  await indexBatchStartedForSearchQuietly(
    ctx,
    starting.map(({ session }) => session),
  );
  return inTurns(starting, START_CONCURRENCY, async ({ session }) => {
    try {
      await launch(ctx, session);
      return undefined;
    } catch (error) {
      if (error instanceof DomainError) return errorOf(error);
      logger.error('batch entity start failed', { session_id: session.session_id, error: error as Error });
      return notStarted;
    }
  });
}

export function batchPollPath(batchId: string): string {
  return `/api/v1/investigations/batch/${encodeURIComponent(batchId)}`;
}

/**
 * The batch and its sessions' statuses, for the key that started it (another key: 403, unknown:
 * 404, as for sessions; console users read every batch of the tenant).
 */
export async function getInvestigationBatch(
  ctx: Pick<BatchContext, 'batches'>,
  caller: Pick<Caller, 'keyId' | 'tenantWide'>,
  batchId: string,
) {
  const batch = assertOwner(await ctx.batches.get(batchId), caller, 'batch');
  const started = batch.entries.flatMap((entry) => ('session_id' in entry ? [entry] : []));
  const records = await ctx.batches.sessions(started.map((entry) => entry.session_id));
  const sessions = started.map((entry) =>
    sessionEntry(entry.session_id, entry.entity, records.get(entry.session_id)),
  );
  const statuses = sessions.map((session) => session.status);
  return {
    batch_id: batch.batch_id,
    status: batchStatus(statuses),
    counts: batchCounts(statuses),
    sessions,
  };
}

function sessionEntry(sessionId: string, entity: Entity, session: SessionRecord | undefined) {
  // A session whose record is not readable yet was just created: it is initialized.
  const report = session?.report_summary ?? session?.report;
  return {
    session_id: sessionId,
    entity,
    status: session?.status ?? ('initialized' as const),
    ...(report ? { verdict: report.verdict, risk_score: report.risk_score } : {}),
  };
}

function answerEntry(ctx: BatchContext, entry: BatchEntry): BatchAnswerEntry {
  if ('error' in entry) return entry;
  return { ...entry, session_url: sessionUrl(ctx.cfg, entry.session_id) };
}

function errorOf(error: DomainError): { code: string; message: string } {
  return { code: error.code, message: error.message };
}

/** Maps the items with at most `concurrency` calls under way, answers in the items' order. */
async function inTurns<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++)
      results[index] = await work(items[index]!, index);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
