import { createHash, randomBytes } from 'node:crypto';
import { type Entity, type EntityInput, entityLabel } from '../../domain/core/entity';
import { normaliseEntity } from '../../domain/core/entity-normalisation';
import {
  ConflictError,
  ForbiddenError,
  RateLimitedError,
  ServiceUnavailableError,
  ValidationError,
} from '../../domain/core/errors';
import { isTerminal } from '../../domain/core/session-status';
import { DEFAULT_TLP, type Tlp } from '../../domain/core/tlp';
import type { ToolCall } from '../../domain/core/vocabulary';
import { unfinishedMessage } from '../../domain/investigation/report/persona-endings';
import { personaNamed } from '../../domain/investigation/report/persona-names';
import { rawResultsFrom } from '../../domain/investigation/report/report';
import { workflowTypeFor, workflowTypeOf } from '../../domain/investigation/workflow-type';
import { assertOwner, starterName } from '../../domain/keys/ownership';
import type { Caller } from '../../domain/keys/scopes';
import { METRIC } from '../../metric-names';
import { countMetric, logger } from '../../observability';
import type { HistoryEntry, SessionRecord } from '../../store/sessions/records';
import { connectorEntityTypes } from '../intel/configured-connectors';
import type { LifecycleContext } from '../sessions/lifecycle-context';
import { indexForSearchQuietly, indexStartedForSearchQuietly } from '../sessions/search-indexing';
import { event, message, pollHeaders, sessionPollPath, sessionUrl } from '../sessions/session-context';
import { dispatchSessionEnd, sessionEndOutbox } from '../webhooks/webhook-events';
import { webhookContextFor } from '../workflow/workflow-faults';

/**
 * The investigation application service behind the start and cancel routes (public and console):
 * start (background or synchronous) creates the session and starts its run, cancel ends it and
 * stops the run. Every investigation runs as a workflow execution of the one ASL definition; the
 * reads of what the steps persisted (poll, report, STIX) are investigation-reads.ts, the workflow
 * step logic is step-*.ts and ended-runs.ts.
 */

export interface StartInvestigationInput {
  entity: EntityInput;
  persona?: string | undefined;
  background: boolean;
  include_tool_calls: boolean;
  include_raw_results: boolean;
  tlp?: Tlp | undefined;
  refresh_intel?: boolean | undefined;
}

export interface StartOptions {
  /** The Idempotency-Key header, when sent. */
  idempotencyKey?: string | undefined;
  /** The Lambda's remaining time; bounds a synchronous wait. */
  remainingTimeMs?: number | undefined;
  /** A batch checked the running-investigations cap for all its entities at once (runningRoom). */
  runningChecked?: boolean;
  /** The caller's own daily quota instead of SIS_DEFAULT_DAILY_INVESTIGATIONS (the system principal's). */
  dailyQuota?: number;
}

export interface StartOutcome {
  statusCode: 200 | 202;
  body: Record<string, unknown>;
  /** On a 202: Location (the session's poll) and Retry-After, for playbooks that follow them. */
  headers?: Record<string, string>;
}

/** Idempotency keys are kept this long, like the retry window of common HTTP clients' queues. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
/**
 * How long a synchronous start sleeps before its `attempt`-th re-read of the session (0-based):
 * 50 ms while a rules run (p50 about 130 ms) is likely to end, then half as long again each time up
 * to 250 ms, where a long run (Bedrock, connector retries) is read four times a second. Measured in
 * `npm run bench` (the synchronous start's wait above the background run); see docs/workflow.md for
 * why this, not StartSyncExecution.
 */
export function syncPollDelayMs(attempt: number): number {
  const early = 50;
  const steady = 250;
  const earlyReads = 6;
  if (attempt < earlyReads) return early;
  return Math.min(steady, Math.round(early * 1.5 ** (attempt - earlyReads + 1)));
}
/** Time kept back from the Lambda's remaining time to answer after the wait. */
export const SYNC_SAFETY_MARGIN_MS = 3_000;

/** ULID-style ID: 48-bit millisecond time + 80 random bits in Crockford base32, time-ordered. */
export function newId(prefix: 's' | 'r' | 'b', now: Date = new Date()): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = now.getTime();
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = alphabet[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(10);
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let randomPart = '';
  for (let i = 0; i < 16; i++) {
    randomPart = alphabet[Number(bits & 31n)] + randomPart;
    bits >>= 5n;
  }
  return `${prefix}_${timePart}${randomPart}`;
}

function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    const detail = 'must be 1-128 characters of letters, digits, "_", "-", "." or ":"';
    throw new ValidationError(`Invalid Idempotency-Key header: ${detail}.`, [
      { path: 'header.idempotency-key', message: detail },
    ]);
  }
  return key;
}

function requestHash(entity: Entity, persona: string, input: StartInvestigationInput): string {
  const canonical = JSON.stringify([
    entity.type,
    entity.value,
    persona,
    input.background,
    input.include_tool_calls,
    input.include_raw_results,
    input.tlp ?? DEFAULT_TLP,
    input.refresh_intel ?? false,
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

function acceptedBody(ctx: LifecycleContext, session: SessionRecord) {
  return {
    session_id: session.session_id,
    run_id: session.run_id,
    session_url: sessionUrl(ctx.cfg, session.session_id),
    status: session.status,
  };
}

/**
 * Creates the session and starts its run. Background: answers at once (202). Synchronous: waits
 * for a terminal status and answers the result (200), or hands back the session to poll (202) when
 * the wait bound passes first. A retried request with the same Idempotency-Key gets the first
 * request's session instead of a new investigation.
 */
export async function startInvestigation(
  ctx: LifecycleContext,
  caller: Caller,
  input: StartInvestigationInput,
  options: StartOptions = {},
): Promise<StartOutcome> {
  const startedWaiting = Date.now();
  const entity = normaliseEntity(input.entity);
  const persona = personaNamed(input.persona);
  const idempotencyKey = checkIdempotencyKey(options.idempotencyKey);
  if (input.refresh_intel && !isAdmin(caller)) {
    throw new ForbiddenError(
      'refresh_intel is for admin keys (and console admins) only: fresh lookups skip the cache and spend the tenant’s provider quotas.',
      [{ path: 'body.refresh_intel', message: 'admin only' }],
    );
  }
  const now = ctx.now();
  await enforceStartLimits(ctx, caller, idempotencyKey, now, options);
  const { session, history } = newSession(ctx, caller, { ...input, entity, persona }, now);
  const hash = requestHash(entity, persona, input);
  const created = await ctx.sessions.create(
    session,
    history,
    idempotencyKey
      ? {
          owner_key_id: caller.keyId,
          idempotency_key: idempotencyKey,
          request_hash: hash,
          created_at: session.created_at,
          expires_at_epoch: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS,
        }
      : undefined,
  );

  let current = session;
  if (created.created) {
    // Indexed before the run starts, so this first entry can never land after the steps' own.
    await indexStartedForSearchQuietly(ctx, session);
    await launch(ctx, session, idempotencyKey);
  } else {
    if (created.existing.request_hash !== hash) {
      throw new ConflictError('This Idempotency-Key was already used with a different request.');
    }
    const existing = await ctx.sessions.get(created.existing.session_id);
    if (!existing)
      throw new ServiceUnavailableError('The earlier session is not readable yet. Retry shortly.');
    current = existing;
  }

  const followHeaders = pollHeaders(ctx.cfg, sessionPollPath(current.session_id));
  if (input.background) return { statusCode: 202, body: acceptedBody(ctx, current), headers: followHeaders };
  const waitMs = Math.min(
    ctx.cfg.SIS_SYNC_WAIT_SECONDS * 1000,
    (options.remainingTimeMs ?? Number.POSITIVE_INFINITY) - SYNC_SAFETY_MARGIN_MS,
  );
  const ended = await waitForTerminal(ctx, current, startedWaiting + waitMs);
  if (!ended) {
    const latest = (await ctx.sessions.get(current.session_id)) ?? current;
    return {
      statusCode: 202,
      body: {
        ...acceptedBody(ctx, latest),
        message:
          'The investigation is still running. Poll getSessionHistory with session_id until session.status is completed, failed or canceled.',
      },
      headers: followHeaders,
    };
  }
  return { statusCode: 200, body: await resultBody(ctx, ended, input) };
}

/**
 * The record of a session about to start (status initialized) and its first history entries: the
 * caller's request, and its run's state machine (Express for a run that fits its 5 minutes: rules
 * analyst, no connector lookup; else Standard).
 */
export function newSession(
  ctx: LifecycleContext,
  caller: Caller,
  input: Omit<StartInvestigationInput, 'entity' | 'persona'> & { entity: Entity; persona: string },
  now: Date,
): { session: SessionRecord; history: HistoryEntry[] } {
  const { entity, persona } = input;
  const session: SessionRecord = {
    session_id: newId('s', now),
    run_id: newId('r', now),
    owner_key_id: caller.keyId,
    ...starterName(caller),
    entity,
    persona,
    status: 'initialized',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    tlp: input.tlp ?? DEFAULT_TLP,
    options: {
      background: input.background,
      include_tool_calls: input.include_tool_calls,
      include_raw_results: input.include_raw_results,
      ...(input.refresh_intel ? { refresh_intel: true } : {}),
    },
    workflow: workflowTypeFor({
      analyst: ctx.cfg.SIS_ANALYST,
      entityType: entity.type,
      connectorEntityTypes: connectorEntityTypes(ctx.cfg),
      expressAvailable: ctx.cfg.SIS_EXPRESS_STATE_MACHINE_ARN !== undefined,
    }),
  };
  const history = [
    message(now, 'user', `Investigate ${entityLabel(entity)} for the ${persona} persona.`),
    event(now, 'status_changed', { status: 'initialized' }),
  ];
  return { session, history };
}

const isAdmin = (caller: Caller) => caller.role === 'admin' || caller.user?.role === 'admin';

/** Margin past the workflow's timeout after which an open marker no longer counts as running. */
const RUNNING_MARGIN_SECONDS = 300;

/**
 * The spending caps of a start (docs/investigations.md, "Spending caps"): at most
 * SIS_MAX_RUNNING_INVESTIGATIONS sessions running at once per API key or console user, and at most
 * SIS_DEFAULT_DAILY_INVESTIGATIONS started per UTC day per key or user (0 turns either off). A 429
 * names the cap and says when to retry. A retried start with an Idempotency-Key already recorded
 * returns the first session and is not counted again.
 */
async function enforceStartLimits(
  ctx: LifecycleContext,
  caller: Caller,
  idempotencyKey: string | undefined,
  now: Date,
  { runningChecked, dailyQuota }: Pick<StartOptions, 'runningChecked' | 'dailyQuota'>,
): Promise<void> {
  const limits = ctx.limits;
  if (!limits) return;
  if (idempotencyKey) {
    // An unexpired record (the repository leaves expired ones out): the start returns its session.
    if (await ctx.idempotency.get(caller.keyId, idempotencyKey)) return;
  }
  if (!runningChecked) {
    const room = await runningRoom(ctx, caller, now);
    if (room.left <= 0) throw runningCapReached(ctx, room.running);
  }
  const quota = dailyQuota ?? ctx.cfg.SIS_DEFAULT_DAILY_INVESTIGATIONS;
  if (quota > 0) {
    const { day, expiresAtEpoch } = quotaDay(now);
    const taken = await limits.takeDailyStart(caller.keyId, day, quota, expiresAtEpoch);
    if (!taken) throw dailyQuotaUsedUp(quota, now);
  }
}

/** The UTC day a start counts against, and when that day's count may be deleted (epoch seconds). */
export function quotaDay(now: Date): { day: string; midnight: number; expiresAtEpoch: number } {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return {
    day: now.toISOString().slice(0, 10),
    midnight,
    expiresAtEpoch: Math.floor(midnight / 1000) + 86_400,
  };
}

/** The 429 of a start past the daily quota. */
export function dailyQuotaUsedUp(quota: number, now: Date): RateLimitedError {
  return new RateLimitedError(
    `Daily investigation quota used up: at most ${quota} investigations per UTC day for one API key or console user (SIS_DEFAULT_DAILY_INVESTIGATIONS). It resets at 00:00 UTC.`,
    Math.ceil((quotaDay(now).midnight - now.getTime()) / 1000),
  );
}

/**
 * How many more investigations the caller may start now under the running-investigations cap
 * (SIS_MAX_RUNNING_INVESTIGATIONS; `left` is infinite without a cap), and how many are running.
 */
export async function runningRoom(
  ctx: LifecycleContext,
  caller: Pick<Caller, 'keyId'>,
  now: Date,
): Promise<{ left: number; running: number }> {
  const cap = ctx.cfg.SIS_MAX_RUNNING_INVESTIGATIONS;
  if (!ctx.limits || cap <= 0) return { left: Number.POSITIVE_INFINITY, running: 0 };
  const window = (ctx.cfg.SIS_WORKFLOW_TIMEOUT_SECONDS ?? 3600) + RUNNING_MARGIN_SECONDS;
  const since = new Date(now.getTime() - window * 1000).toISOString();
  const running = await ctx.limits.runningCount(caller.keyId, since, cap);
  return { left: cap - running, running };
}

/** The 429 of a start over the running-investigations cap. */
export function runningCapReached(ctx: LifecycleContext, running: number): RateLimitedError {
  const cap = ctx.cfg.SIS_MAX_RUNNING_INVESTIGATIONS;
  return new RateLimitedError(
    `Running-investigations cap reached: at most ${cap} investigations may run at once for one API key or console user (SIS_MAX_RUNNING_INVESTIGATIONS), and ${running} are running. Retry when one has ended.`,
    30,
  );
}

/** Starts the run; if that fails the session is marked failed at once, so it never stays initialized. */
export async function launch(
  ctx: LifecycleContext,
  session: SessionRecord,
  idempotencyKey?: string,
): Promise<void> {
  try {
    await ctx.workflow.start(session.run_id, { session_id: session.session_id }, workflowTypeOf(session));
    countMetric(METRIC.investigationsStarted);
  } catch (error) {
    logger.error('workflow start failed', { session_id: session.session_id, error: error as Error });
    const reason = 'The investigation could not be started.';
    const at = ctx.now();
    const moved = await ctx.sessions.transition(
      session.session_id,
      'failed',
      { failure_reason: reason, completed_at: at.toISOString() },
      [
        event(at, 'status_changed', { status: 'failed', reason }),
        message(at, 'assistant', unfinishedMessage(session.persona, session.entity, 'failed', reason)),
      ],
    );
    if (moved.ok) {
      countMetric(METRIC.investigationsFailed);
      await indexForSearchQuietly(ctx, moved.session);
    }
    // A retry with the same key should start afresh rather than replay this failure.
    if (idempotencyKey)
      await ctx.idempotency.delete(session.owner_key_id, idempotencyKey, session.session_id);
    throw new ServiceUnavailableError('The investigation could not be started. Retry shortly.');
  }
}

async function waitForTerminal(
  ctx: LifecycleContext,
  session: SessionRecord,
  deadline: number,
): Promise<SessionRecord | undefined> {
  let current: SessionRecord | undefined = session;
  for (let attempt = 0; current && !isTerminal(current.status); attempt++) {
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await new Promise((wake) => setTimeout(wake, Math.min(syncPollDelayMs(attempt), left)));
    current = await ctx.sessions.get(session.session_id);
  }
  return current;
}

async function toolCallsOf(ctx: LifecycleContext, sessionId: string): Promise<ToolCall[]> {
  const results = await ctx.toolResults.list(sessionId);
  return results.map((r) => r.call).sort((a, b) => a.started_at.localeCompare(b.started_at));
}

async function resultBody(ctx: LifecycleContext, session: SessionRecord, input: StartInvestigationInput) {
  const wantsCalls = input.include_tool_calls || input.include_raw_results;
  const calls = wantsCalls ? await toolCallsOf(ctx, session.session_id) : [];
  return {
    ...acceptedBody(ctx, session),
    report: session.report ?? null,
    ...(session.failure_reason ? { failure_reason: session.failure_reason } : {}),
    ...(input.include_tool_calls ? { tool_calls: calls } : {}),
    ...(input.include_raw_results ? { raw_results: rawResultsFrom(calls) } : {}),
  };
}

// ---- Cancel ----

export const CANCEL_REASON = 'Canceled by the caller.';

/**
 * Cancels a running investigation: the session moves to canceled (recorded first, so the outcome is
 * certain), then the run is stopped; any step still finishing finds the session ended and adds
 * nothing to its history (a rules run's tool step may still write its result item, which the
 * cancel did not publish). A session that already ended is a 409.
 */
export async function cancelInvestigation(ctx: LifecycleContext, caller: Caller, sessionId: string) {
  const session = assertOwner(await ctx.sessions.get(sessionId), caller);
  const alreadyEnded = () =>
    new ConflictError(`The investigation has already ended (status ${session.status}); nothing to cancel.`);
  if (isTerminal(session.status)) throw alreadyEnded();
  const at = ctx.now();
  const set = { completed_at: at.toISOString() };
  // The webhook deliveries of the cancel are written with it (a lost send: the sweeper repeats it).
  const webhooks = webhookContextFor(session.entity.value);
  const outbox = await sessionEndOutbox(webhooks, { ...session, ...set, status: 'canceled' });
  const moved = await ctx.sessions.transition(
    sessionId,
    'canceled',
    set,
    [
      event(at, 'status_changed', { status: 'canceled', reason: CANCEL_REASON }),
      message(at, 'assistant', unfinishedMessage(session.persona, session.entity, 'canceled')),
    ],
    outbox,
  );
  if (!moved.ok) {
    throw new ConflictError(
      `The investigation has already ended (status ${moved.session?.status ?? 'unknown'}); nothing to cancel.`,
    );
  }
  try {
    // An Express run cannot be stopped (no-op): its remaining steps find the session canceled.
    await ctx.workflow.stop(session.run_id, CANCEL_REASON, workflowTypeOf(session));
  } catch (error) {
    // The session is canceled whatever the run does now: its remaining steps are refused by the
    // status conditions. A run that ended or never started has nothing to stop.
    if (!(error instanceof Error && error.name === 'ExecutionDoesNotExist')) {
      logger.warn('stopping the run failed', { session_id: sessionId, error: error as Error });
    }
  }
  await indexForSearchQuietly(ctx, moved.session);
  await dispatchSessionEnd(webhooks, moved.session, outbox);
  return { session_id: sessionId, status: moved.session.status };
}
