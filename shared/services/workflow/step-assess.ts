import type { Config } from '../../config';
import type { Entity } from '../../domain/core/entity';
import {
  isToolName,
  type Report,
  TOOL_NAMES,
  type ToolCall,
  type ToolName,
  toolOrder,
} from '../../domain/core/vocabulary';
import { CONNECTOR_NAMES } from '../../domain/intel/names';
import { newToolCallId } from '../../domain/investigation/call-ids';
import { type SourceSetup, withAnalystCoverage } from '../../domain/investigation/coverage-sources';
import { buildReport } from '../../domain/investigation/report/report';
import * as z from '../../zod';
import type { AssessContext } from '../analyst/analysis-context';
import { withAnalyst } from '../analyst/analyst-report';
import { enabledFeeds } from '../feeds/enabled-feeds';
import { keyOf } from '../intel/configured-connectors';
import { event, toolCallEntry } from '../sessions/session-context';
import { injectFault } from './workflow-faults';
import { loadSession, recordedToolCalls, SessionInput } from './workflow-step';

/** The Assess state: records tools that could not run, scores the tool results and builds the report. */

const AssessInput = /* @__PURE__ */ (() => {
  const results = z
    .array(
      z.object({
        tool: z.string(),
        status: z.string(),
        recorded: z.optional(z.boolean()),
        error: z.optional(z.string()),
      }),
    )
    .check(z.maxLength(TOOL_NAMES.length));
  return z.extend(SessionInput, {
    /** The built-in tools' Map (step-run-tool). */
    tool_results: results,
    /**
     * The connector tools' Map (step-run-intel), a separate field because ASL cannot concatenate two
     * lists; optional for a run started by a definition from before the two Maps.
     */
    intel_results: z.optional(results),
    /** Set by the AssessWithAnalyst state (bedrock mode): the report gains the analyst's section. */
    analyst: z.optional(z.boolean()),
  });
})();

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

/** The sources this deployment turned on, which the report's coverage lists beside those it ran. */
function sourceSetup(cfg: Config): SourceSetup {
  return {
    feeds: enabledFeeds(cfg),
    connectors: CONNECTOR_NAMES.filter((name) => keyOf(cfg, name).configured),
    analyst: cfg.SIS_ANALYST,
  };
}

function inToolOrder(calls: ToolCall[]): ToolCall[] {
  return [...calls].sort((a, b) => toolOrder(a.name) - toolOrder(b.name));
}

export async function assess(ctx: AssessContext, rawInput: unknown): Promise<{ report: Report | null }> {
  const input = AssessInput.parse(rawInput);
  const session = await loadSession(ctx, input.session_id);
  const entity = session.entity;
  await injectFault(ctx.cfg, 'step-assess', entity.value);
  if (session.status !== 'active') return { report: null };

  // Tools whose step failed outright left no record: record them as failed tool calls now, so the
  // history and the report's coverage show every tool that was planned.
  const recorded = await recordedToolCalls(ctx, input.session_id);
  const seen = new Set(recorded.map((call) => call.name));
  let raced = false;
  for (const line of [...input.tool_results, ...(input.intel_results ?? [])]) {
    const tool = line.tool;
    if (!isToolName(tool) || seen.has(tool)) continue;
    const at = ctx.now();
    const call = unrecordedFailure(tool, entity, at);
    const result = { tool, call };
    const history = [
      toolCallEntry(call),
      event(at, 'tool_failed', { tool, tool_call_id: call.tool_call_id, error: call.error }),
    ];
    // A rules run's tool calls enter the history at its end (step-run-tool); the analyst's are already in it.
    const outcome = input.analyst
      ? await ctx.toolResults.record(input.session_id, result, history)
      : await ctx.toolResults.recordDeferred(input.session_id, result, history);
    if (outcome === 'not_active') return { report: null };
    seen.add(tool);
    // Another delivery of this step (or a late tool step) recorded this tool first: that record counts.
    if (outcome === 'duplicate') raced = true;
    else recorded.push(call);
  }
  const calls = raced ? await recordedToolCalls(ctx, input.session_id) : recorded;
  const report = buildReport({
    entity,
    persona: session.persona,
    toolCalls: inToolOrder(calls),
    sources: sourceSetup(ctx.cfg),
  });
  if (input.analyst) return { report: withAnalystCoverage(await withAnalyst(ctx, input.session_id, report)) };
  return { report };
}
