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
import type { SessionRecord } from '../../store/sessions/records';
import { onSessionsTable } from '../../store/sessions-table';
import { type LifecycleContext, lifecycleContext } from '../sessions/lifecycle-context';
import { pollHeaders, sessionUrl } from '../sessions/session-context';
import { newId, runningCapReached, runningRoom, startInvestigation } from './investigations';

/**
 * Batches (docs/soar.md, "Batches"): a playbook starts an investigation of each of up to 100
 * entities in one call and follows them with one poll. Each entity is a background start of its
 * own (startInvestigation), counted against the key's daily quota; the running-investigations cap
 * is read once for the whole batch, so the entities past it are refused (rate_limited) rather than
 * racing each other past it. An entity that could not start is an entry with its error in the
 * contract's codes; the others run.
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

/** Starts at once at most this many of a batch's sessions (each a few DynamoDB writes and a run). */
const START_CONCURRENCY = 10;

type BatchAnswerEntry =
  | { entity: Entity; session_id: string; session_url: string }
  | { entity: Entity; error: { code: string; message: string } };

export async function startInvestigationBatch(ctx: BatchContext, caller: Caller, input: StartBatchInput) {
  const entities = batchEntities(input.entities as never);
  const persona = personaNamed(input.persona);
  const now = ctx.now();
  const room = await runningRoom(ctx, caller, now);
  const entries = await inTurns(entities, START_CONCURRENCY, async (entity, index): Promise<BatchEntry> => {
    if (index >= room.left) return { entity, error: errorOf(runningCapReached(ctx, room.running)) };
    try {
      const outcome = await startInvestigation(
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
        { runningChecked: true },
      );
      return { entity, session_id: String(outcome.body.session_id) };
    } catch (error) {
      if (error instanceof DomainError) return { entity, error: errorOf(error) };
      logger.error('batch entity start failed', { error: error as Error });
      return {
        entity,
        error: { code: 'internal_error', message: 'The investigation could not be started.' },
      };
    }
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
