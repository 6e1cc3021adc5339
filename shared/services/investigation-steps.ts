import type { OfflineIntel } from '../domain/enrichment';
import type { Entity } from '../domain/entity';
import { normaliseEntity } from '../domain/entity-normalisation';
import { NotFoundError } from '../domain/errors';
import { edgesFromInvestigation } from '../domain/graph';
import { newToolCallId, runToolByName } from '../domain/investigation/engine';
import {
  buildReport,
  closingMessage,
  openingMessage,
  relationshipsFrom,
  unfinishedMessage,
} from '../domain/investigation/report';
import { toolOrder, toolsFor } from '../domain/investigation/tools';
import { type Report, TOOL_NAMES, type ToolCall, type ToolName } from '../domain/investigation/types';
import type { SessionStatus } from '../domain/session-status';
import { isTerminal } from '../domain/session-status';
import { DEFAULT_TLP, TLP_LEVELS, type Tlp, tlpOf } from '../domain/tlp';
import { METRIC } from '../metric-names';
import { countMetric, durationMetric, flushMetrics, logAlarmedFailure, logger } from '../observability';
import type { HistoryEntry, SessionRecord } from '../store/sessions-repository';
import * as z from '../zod';
import { withAnalyst } from './analyst-steps';
import type { InvestigationContext, PlanningContext } from './investigation-context';
import { indexForSearch, indexForSearchQuietly, type SearchIndexing } from './search-indexing';
import { event, message, type SessionContext, subjectOf, toolCallEntry } from './session-context';
import type { StepContext } from './step-context';
import { dataWithFaults, injectFault } from './workflow-faults';

/**
 * The logic of the workflow's Task states (infra/workflow/investigation.asl.json), one function per
 * step Lambda, plus the write-back of ended executions and of runs a local restart interrupted.
 *
 * Every write is conditioned on the session's status (session-status.ts), so a step that runs late
 * (after a cancel, a failure or a duplicate delivery) changes nothing, and every step is safe to
 * retry: MarkActive accepts an already active session, a tool's result is recorded once, Persist
 * finds a completed session and stops.
 *
 * State payloads stay small: tool outputs go to DynamoDB, the state carries one compact line per
 * tool, and the report (bounded by the domain) is the largest thing passed between states.
 */

/** Errors the state machine retries (its Retry lists `TransientError`). */
export class TransientError extends Error {
  override readonly name = 'TransientError';
}

/** The session ended (canceled, failed) before this step could do its work. */
export class SessionEndedError extends Error {
  override readonly name = 'SessionEnded';
}

const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
  'TimeoutError',
  'ECONNRESET',
  'ECONNREFUSED',
]);

/**
 * A conditional transaction that lost an optimistic-concurrency race even after the store's own
 * retries: many concurrent investigations writing the same hot graph node or search term. Steps are
 * idempotent, so the workflow retries the step later (1-7 s), which spreads the writers out.
 * Conditions that encode a decision (a session already ended) are handled inside the repositories
 * and never reach here.
 */
function lostWriteRace(error: unknown): boolean {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] } | null)?.CancellationReasons;
  return (
    error instanceof Error &&
    error.name === 'TransactionCanceledException' &&
    !!reasons?.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict')
  );
}

/** Maps store and network hiccups to TransientError so the workflow retries the step. */
export async function asStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const code = (error as { code?: string } | null)?.code ?? '';
    logger.error('workflow step failed', { step, error: error as Error });
    if (TRANSIENT.has(name) || TRANSIENT.has(code) || lostWriteRace(error)) {
      throw new TransientError(`${step}: ${name || code}`);
    }
    throw error;
  } finally {
    flushMetrics();
  }
}

const SessionInput = /* @__PURE__ */ (() =>
  z.object({ session_id: z.string().check(z.minLength(1), z.maxLength(64)) }))();
const EntityShape = /* @__PURE__ */ (() =>
  z.object({
    type: z.enum(['ip', 'user', 'host', 'domain']),
    value: z.string().check(z.minLength(1), z.maxLength(256)),
  }))();

async function loadSession(ctx: SessionContext, sessionId: string): Promise<SessionRecord> {
  const session = await ctx.sessions.get(sessionId);
  if (!session) throw new NotFoundError(`No session ${sessionId}`);
  return session;
}

// ---- MarkActive ----

export interface Plan {
  entity: Entity;
  persona: string;
  tools: ToolName[];
  /** Handed to every tool by the Map state: connectors gate what they send on them. */
  tlp: Tlp;
  refresh_intel: boolean;
  /** The deployment's analyst mode: the workflow's Choice sends `bedrock` runs through AnalystTurn. */
  analyst: 'rules' | 'bedrock';
}

export async function markActive(ctx: PlanningContext, rawInput: unknown): Promise<Plan> {
  const { session_id } = SessionInput.parse(rawInput);
  const session = await loadSession(ctx, session_id);
  const entity = normaliseEntity(subjectOf(session));
  await injectFault(ctx.cfg, 'step-mark-active', entity.value);
  const tools = toolsFor(entity, (connector) => ctx.intel?.enabled(connector) ?? false);
  const plan: Plan = {
    entity,
    persona: session.persona,
    tools,
    tlp: tlpOf(session.tlp),
    refresh_intel: session.options?.refresh_intel === true,
    analyst: ctx.cfg.SIS_ANALYST,
  };
  if (session.status === 'active') return plan; // a retried step
  if (isTerminal(session.status)) throw new SessionEndedError(`Session ${session_id} is ${session.status}`);
  const at = ctx.now();
  const moved = await ctx.sessions.transition(session_id, 'active', { started_at: at.toISOString() }, [
    event(at, 'status_changed', { status: 'active', tools }),
    message(at, 'assistant', openingMessage(session.persona, entity, tools)),
  ]);
  if (!moved.ok && moved.session?.status !== 'active') {
    throw new SessionEndedError(`Session ${session_id} is ${moved.session?.status ?? 'gone'}`);
  }
  return plan;
}

// ---- RunTool (one Map iteration) ----

const RunToolInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, {
    entity: EntityShape,
    tool: z.enum(TOOL_NAMES),
    tlp: z._default(z.enum(TLP_LEVELS), DEFAULT_TLP),
    refresh_intel: z._default(z.boolean(), false),
    /** Set when the analyst model asked for this lookup (the workflow's RunRequestedTools map). */
    requested: z.optional(
      z.object({
        tool_use_id: z.string().check(z.minLength(1), z.maxLength(128)),
        turn: z.number().check(z.int(), z.gte(1)),
      }),
    ),
  }))();

/** The compact line a tool leaves in the state; its output is in DynamoDB. */
export interface ToolResultLine {
  tool: string;
  status: ToolCall['status'] | 'skipped';
  recorded: boolean;
  findings?: number;
  max_score?: number;
  error?: string;
}

function lineFor(call: ToolCall): ToolResultLine {
  const findings = call.output?.findings ?? [];
  return {
    tool: call.name,
    status: call.status,
    recorded: true,
    findings: findings.length,
    max_score: findings.reduce((max, f) => Math.max(max, f.score), 0),
  };
}

export async function runTool(
  ctx: InvestigationContext,
  rawInput: unknown,
  enrichment: { offline?: OfflineIntel } = {},
): Promise<ToolResultLine> {
  const input = RunToolInput.parse(rawInput);
  await injectFault(ctx.cfg, 'step-run-tool', input.entity.value, input.tool);
  const requestedId = input.requested?.tool_use_id;
  const existing = await ctx.sessions.getToolResult(input.session_id, input.tool, requestedId);
  if (existing) return lineFor(existing.call as unknown as ToolCall);

  const events: HistoryEntry[] = [];
  const call = await runToolByName(
    input.tool,
    input.entity,
    {
      data: dataWithFaults(ctx.cfg, input.entity.value, input.tool, ctx.data),
      sessionId: input.session_id,
      now: ctx.now,
      ...(enrichment.offline ? { offline: enrichment.offline } : {}),
      intel: ctx.intel,
      tlp: input.tlp,
      refreshIntel: input.refresh_intel,
      internalSuffixes: ctx.cfg.SIS_INTERNAL_SUFFIXES,
    },
    {
      toolCallId: newToolCallId(),
      onEvent: (e) => events.push(event(e.created_at, e.type, e.detail)),
      onError: (error, failed) =>
        logger.warn('tool failed', {
          tool: failed.name,
          session_id: input.session_id,
          error: error as Error,
        }),
    },
  );
  const [started, ...finished] = events;
  // A lookup the analyst model asked for is marked as such, with the model's tool use ID.
  const recorded = input.requested ? { ...call, requested_by: 'model' as const, ...input.requested } : call;
  const outcome = await ctx.sessions.recordToolResult(
    input.session_id,
    { tool: input.tool, call: recorded as unknown as Record<string, unknown> },
    [...(started ? [started] : []), toolCallEntry(recorded), ...finished],
    requestedId,
  );
  if (outcome === 'not_active') return { tool: input.tool, status: 'skipped', recorded: false };
  if (outcome === 'duplicate') {
    const recorded = await ctx.sessions.getToolResult(input.session_id, input.tool, requestedId);
    return recorded ? lineFor(recorded.call as unknown as ToolCall) : lineFor(call);
  }
  return lineFor(call);
}

// ---- Assess ----

const AssessInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, {
    tool_results: z
      .array(
        z.object({
          tool: z.string(),
          status: z.string(),
          recorded: z.optional(z.boolean()),
          error: z.optional(z.string()),
        }),
      )
      .check(z.maxLength(TOOL_NAMES.length)),
    /** Set by the AssessWithAnalyst state (bedrock mode): the report gains the analyst's section. */
    analyst: z.optional(z.boolean()),
  }))();

/** What a tool that could not even run (its step failed after retries) is recorded as. */
function unrecordedFailure(tool: ToolName, entity: Entity, at: Date): ToolCall {
  return {
    tool_call_id: newToolCallId(),
    name: tool,
    input: { entity },
    output: null,
    status: 'failed',
    error: 'The tool could not be run.',
    started_at: at.toISOString(),
    duration_ms: 0,
  };
}

export async function recordedToolCalls(ctx: SessionContext, sessionId: string): Promise<ToolCall[]> {
  const results = await ctx.sessions.listToolResults(sessionId);
  return results.map((r) => r.call as unknown as ToolCall);
}

function inToolOrder(calls: ToolCall[]): ToolCall[] {
  return [...calls].sort((a, b) => toolOrder(a.name) - toolOrder(b.name));
}

export async function assess(ctx: SessionContext, rawInput: unknown): Promise<{ report: Report | null }> {
  const input = AssessInput.parse(rawInput);
  const session = await loadSession(ctx, input.session_id);
  const entity = subjectOf(session);
  await injectFault(ctx.cfg, 'step-assess', entity.value);
  if (session.status !== 'active') return { report: null };

  // Tools whose step failed outright left no record: record them as failed tool calls now, so the
  // history and the report's coverage show every tool that was planned.
  const recorded = await recordedToolCalls(ctx, input.session_id);
  const seen = new Set(recorded.map((call) => call.name));
  for (const line of input.tool_results) {
    const tool = line.tool as ToolName;
    if (seen.has(tool) || !(TOOL_NAMES as readonly string[]).includes(tool)) continue;
    const at = ctx.now();
    const call = unrecordedFailure(tool, entity, at);
    const outcome = await ctx.sessions.recordToolResult(
      input.session_id,
      { tool, call: call as unknown as Record<string, unknown> },
      [
        toolCallEntry(call),
        event(at, 'tool_failed', { tool, tool_call_id: call.tool_call_id, error: call.error }),
      ],
    );
    if (outcome === 'not_active') return { report: null };
    recorded.push(call);
    seen.add(tool);
  }
  const report = buildReport({ entity, persona: session.persona, toolCalls: inToolOrder(recorded) });
  if (input.analyst) return { report: await withAnalyst(ctx, input.session_id, report) };
  return { report };
}

// ---- Persist ----

const PersistInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, { report: z.nullable(z.record(z.string(), z.unknown())) }))();

/**
 * Writes what the investigation learned (graph edges, the subject's verdict for later runs, the
 * search index), then the report with active → completed. The knowledge writes come first and are
 * idempotent, so a client that sees `completed` can already find the session and its edges.
 */
export async function persist(
  ctx: StepContext,
  rawInput: unknown,
): Promise<{ session_id: string; status: SessionStatus }> {
  const input = PersistInput.parse(rawInput);
  const session = await loadSession(ctx, input.session_id);
  const entity = subjectOf(session);
  await injectFault(ctx.cfg, 'step-persist', entity.value);
  const report = input.report as Report | null;
  if (session.status !== 'active' || !report)
    return { session_id: session.session_id, status: session.status };

  const at = ctx.now();
  const completedAt = at.toISOString();
  const calls = await recordedToolCalls(ctx, session.session_id);
  const discovered = relationshipsFrom({ entity, toolCalls: calls, sessionId: session.session_id });
  await ctx.graph.record(
    { id: session.session_id, kind: 'investigation', at: completedAt },
    [{ entity, kind: 'investigation', at: completedAt, risk_score: report.risk_score }],
    edgesFromInvestigation({
      session_id: session.session_id,
      entity,
      related: discovered.map((edge) => edge.to),
      at: completedAt,
    }),
  );
  await ctx.sessions.recordVerdict(entity, {
    session_id: session.session_id,
    verdict: report.verdict,
    risk_score: report.risk_score,
    completed_at: completedAt,
  });
  await indexForSearch(ctx, { ...session, status: 'completed', report: report as never });

  const moved = await ctx.sessions.transition(
    session.session_id,
    'completed',
    { report: report as never, completed_at: completedAt },
    [
      event(at, 'report_ready', { verdict: report.verdict, risk_score: report.risk_score }),
      message(at, 'assistant', closingMessage(report)),
      event(at, 'status_changed', { status: 'completed' }),
    ],
  );
  if (!moved.ok) {
    // Canceled or failed meanwhile: the index must show the status that stuck.
    if (moved.session) await indexForSearchQuietly(ctx, moved.session);
    return { session_id: session.session_id, status: moved.session?.status ?? session.status };
  }
  countMetric(METRIC.investigationsCompleted);
  durationMetric(METRIC.investigationDuration, at.getTime() - Date.parse(session.created_at));
  return { session_id: session.session_id, status: 'completed' };
}

// ---- Failure write-back ----

export const REASONS = {
  engine: 'The investigation engine failed.',
  stepTimeout: 'A step of the investigation timed out.',
  timedOut: 'The investigation exceeded its time limit.',
  aborted: 'The investigation run was stopped.',
  restart: 'interrupted by a service restart',
} as const;

/**
 * Ends the session as failed (or canceled) unless it already ended; returns whether this call
 * recorded it. The reason is safe to show: internal error names and causes go to the logs only.
 */
export async function endSession(
  ctx: SessionContext & SearchIndexing,
  sessionId: string,
  outcome: 'failed' | 'canceled',
  reason: string,
): Promise<boolean> {
  const session = await ctx.sessions.get(sessionId);
  if (!session || isTerminal(session.status)) return false;
  const at = ctx.now();
  const moved = await ctx.sessions.transition(
    sessionId,
    outcome,
    { completed_at: at.toISOString(), ...(outcome === 'failed' ? { failure_reason: reason } : {}) },
    [
      event(at, 'status_changed', { status: outcome, reason }),
      message(at, 'assistant', unfinishedMessage(session.persona, subjectOf(session), outcome, reason)),
    ],
  );
  if (moved.ok) {
    if (outcome === 'failed') countMetric(METRIC.investigationsFailed);
    await indexForSearchQuietly(ctx, moved.session);
  }
  return moved.ok;
}

const MarkFailedInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, {
    error: z.optional(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.string()) })),
  }))();

export async function markFailed(
  ctx: SessionContext & SearchIndexing,
  rawInput: unknown,
): Promise<{ recorded: boolean }> {
  const input = MarkFailedInput.parse(rawInput);
  // Counted by the failures alarm here and again when the run's FAILED status reaches the
  // status-change function: either one alone keeps the failure alarmed.
  logAlarmedFailure('investigation run failed', {
    session_id: input.session_id,
    error_name: input.error?.Error,
    cause: input.error?.Cause?.slice(0, 2000),
  });
  const reason = input.error?.Error === 'States.Timeout' ? REASONS.stepTimeout : REASONS.engine;
  return { recorded: await endSession(ctx, input.session_id, 'failed', reason) };
}

/** EventBridge "Step Functions Execution Status Change" (the fields this service reads). */
const StatusChangeEvent = /* @__PURE__ */ (() =>
  z.object({
    'detail-type': z.literal('Step Functions Execution Status Change'),
    detail: z.object({
      executionArn: z.string(),
      name: z.string(),
      status: z.enum(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE']),
      input: z.optional(z.nullable(z.string())),
      error: z.optional(z.nullable(z.string())),
      cause: z.optional(z.nullable(z.string())),
    }),
  }))();

/**
 * The backstop that keeps a session from staying active after its run ended: FAILED and TIMED_OUT
 * runs end the session failed, ABORTED ones canceled (a stop from the console or the API), unless
 * a step or the cancel route already ended it.
 */
export async function onExecutionStatusChange(
  ctx: SessionContext & SearchIndexing,
  rawEvent: unknown,
): Promise<{ session_id?: string; recorded: boolean }> {
  const { detail } = StatusChangeEvent.parse(rawEvent);
  let sessionId: string | undefined;
  try {
    sessionId = SessionInput.parse(JSON.parse(detail.input ?? '')).session_id;
  } catch {
    sessionId = undefined;
  }
  const ended = {
    session_id: sessionId,
    execution_arn: detail.executionArn,
    execution_status: detail.status,
    error_name: detail.error ?? undefined,
  };
  // A failed or timed-out run is what the failures alarm counts (it has no alarm of its own), before
  // anything here can fail; a crash of this function is counted as a failed invocation anyway.
  if (detail.status === 'FAILED' || detail.status === 'TIMED_OUT') {
    logAlarmedFailure('investigation run ended unsuccessfully', ended);
  } else logger.info('investigation run ended', ended);
  if (sessionId === undefined) {
    logger.error('status change without a session input', { execution_arn: detail.executionArn });
    return { recorded: false };
  }
  switch (detail.status) {
    case 'FAILED':
      return { session_id: sessionId, recorded: await endSession(ctx, sessionId, 'failed', REASONS.engine) };
    case 'TIMED_OUT':
      return {
        session_id: sessionId,
        recorded: await endSession(ctx, sessionId, 'failed', REASONS.timedOut),
      };
    case 'ABORTED':
      return {
        session_id: sessionId,
        recorded: await endSession(ctx, sessionId, 'canceled', REASONS.aborted),
      };
    default:
      return { session_id: sessionId, recorded: false };
  }
}

/**
 * For the local runtime at start-up: sessions left open by the previous process cannot be running
 * (their executions lived in that process), so they end failed. They are never re-run: polling
 * reads persisted state only (spec 3, rule 4).
 */
export async function failInterruptedSessions(ctx: SessionContext & SearchIndexing): Promise<string[]> {
  const ended: string[] = [];
  for (;;) {
    const open = await ctx.sessions.listOpen(100);
    if (open.length === 0) return ended;
    let progressed = false;
    for (const session of open) {
      if (await endSession(ctx, session.session_id, 'failed', REASONS.restart)) {
        ended.push(session.session_id);
        progressed = true;
      }
    }
    // The index is eventually consistent: stop rather than spin on entries already ended.
    if (!progressed) return ended;
  }
}
