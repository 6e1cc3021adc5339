import { ANALYST_MODES } from '../../domain/analyst/modes';
import { DEFAULT_TLP, TLP_LEVELS } from '../../domain/core/tlp';
import { type FeedsPort, TOOL_NAMES, type Tool, type ToolCall } from '../../domain/core/vocabulary';
import { newToolCallId } from '../../domain/investigation/call-ids';
import { runToolIn } from '../../domain/investigation/engine';
import type { OfflineIntel } from '../../domain/investigation/tools/enrichment';
import { logger } from '../../observability';
import type { HistoryEntry } from '../../store/sessions/records';
import * as z from '../../zod';
import { event, toolCallEntry } from '../sessions/session-context';
import type { InvestigationContext } from './investigation-context';
import { dataWithFaults, injectFault } from './workflow-faults';
import { SessionInput } from './workflow-step';

/**
 * The tool steps of the workflow (one Map iteration each): run one tool and record its tool call
 * once. The same logic for both steps the Map chooses between by tool name: step-run-tool (the
 * built-in tools, with the offline enrichment data) and step-run-intel (the `intel_*` connector
 * tools, with the connectors' runtime); each handler passes the tools it carries.
 */

/**
 * What a tool step works with: the session, the tools' data port and, for run-intel, the connectors'
 * runtime (investigation-context.ts builds run-tool's, intel-context.ts run-intel's).
 */
export type ToolStepContext = Pick<InvestigationContext, 'cfg' | 'now' | 'toolResults' | 'data' | 'intel'>;

/** Which step runs the tool, the tools it carries and what they read besides the context. */
export interface ToolStep {
  /** The step function's name: fault-injection rules (workflow-faults.ts) address it. */
  name: 'step-run-tool' | 'step-run-intel';
  tools: readonly Tool[];
  offline?: OfflineIntel;
  /** The compiled public feeds (run-tool only). */
  feeds?: FeedsPort;
}

const EntityShape = /* @__PURE__ */ (() =>
  z.object({
    type: z.enum(['ip', 'user', 'host', 'domain']),
    value: z.string().check(z.minLength(1), z.maxLength(256)),
  }))();

const RunToolInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, {
    entity: EntityShape,
    tool: z.enum(TOOL_NAMES),
    tlp: z._default(z.enum(TLP_LEVELS), DEFAULT_TLP),
    refresh_intel: z._default(z.boolean(), false),
    /**
     * The run's analyst mode, which the workflow passes to the built-in tools only: in a rules run
     * their history waits for the session's end (recordToolResultDeferred). Connector lookups, which
     * take seconds, and the model's lookups, whose answers its turns refer to, are published at once.
     */
    analyst: z.optional(z.enum(ANALYST_MODES)),
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
  ctx: ToolStepContext,
  rawInput: unknown,
  step: ToolStep,
): Promise<ToolResultLine> {
  const input = RunToolInput.parse(rawInput);
  await injectFault(ctx.cfg, step.name, input.entity.value, input.tool);
  const requestedId = input.requested?.tool_use_id;
  const existing = await ctx.toolResults.get(input.session_id, input.tool, requestedId);
  if (existing) return lineFor(existing.call);

  const events: HistoryEntry[] = [];
  const call = await runToolIn(
    step.tools,
    input.tool,
    input.entity,
    {
      data: dataWithFaults(ctx.cfg, step.name, input.entity.value, input.tool, ctx.data),
      sessionId: input.session_id,
      now: ctx.now,
      ...(step.offline ? { offline: step.offline } : {}),
      ...(step.feeds ? { feeds: step.feeds } : {}),
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
  const result = { tool: input.tool, call: recorded };
  const history = [...(started ? [started] : []), toolCallEntry(recorded), ...finished];
  const outcome =
    input.analyst === 'rules' && !input.requested
      ? await ctx.toolResults.recordDeferred(input.session_id, result, history)
      : await ctx.toolResults.record(input.session_id, result, history, requestedId);
  if (outcome === 'not_active') return { tool: input.tool, status: 'skipped', recorded: false };
  if (outcome === 'duplicate') {
    const recorded = await ctx.toolResults.get(input.session_id, input.tool, requestedId);
    return recorded ? lineFor(recorded.call) : lineFor(call);
  }
  return lineFor(call);
}
