import { perConfiguration } from '../../config';
import {
  type AnalystBudget,
  applyResponse,
  attachToolResults,
  type Conversation,
  checkBudget,
  type EvidenceTool,
  evidenceIndicators,
  type FallbackReason,
  fallback,
  type NextStep,
  nextRequest,
  type OfferedTool,
  openingText,
  type RequestedResult,
  startConversation,
  systemPrompt,
  type TurnRecord,
} from '../../domain/analyst';
import type { Entity } from '../../domain/core/entity';
import type { ToolCall } from '../../domain/core/vocabulary';
import { personaNamed } from '../../domain/investigation/report/persona-names';
import { assessmentOf } from '../../domain/investigation/report/report';
import { toolDeclarations } from '../../domain/investigation/tools/tool-catalogue';
import { logger } from '../../observability';
import { type AnalystModel, bedrockAnalystModel, ModelCallError } from '../../platform/bedrock-analyst';
import type { HistoryEntry } from '../../store/sessions/records';
import * as z from '../../zod';
import type { AnalystTurnContext } from '../analyst/analysis-context';
import { readPromptFile } from '../analyst/analyst-prompts';
import { event, message, type SessionContext } from '../sessions/session-context';
import { loadSession, SessionInput } from './workflow-step';

/**
 * The AnalystTurn state of the workflow (SIS_ANALYST=bedrock; docs/analyst.md): one model turn per
 * invocation. The conversation is kept in DynamoDB between turns (its size is unbounded by Step
 * Functions' 256 KB payload), the state carries only the turn count and the lookups to run next.
 * Every model failure ends the conversation with a fallback reason; the investigation always goes
 * on to Assess, which writes the rules narrative when the model's is missing or unusable.
 */
export interface AnalystDeps {
  model: AnalystModel;
  prompts: (fileName: string) => string;
}

/** The analyst step's dependencies in this process, built once per configuration like every service context. */
export const analystDeps = /* @__PURE__ */ perConfiguration(
  (cfg): AnalystDeps => ({ model: bedrockAnalystModel(cfg), prompts: readPromptFile }),
);

const TurnInput = /* @__PURE__ */ (() =>
  z.extend(SessionInput, {
    /** Turns the workflow has seen complete; a stored conversation further on means a retried step. */
    turn: z._default(z.number().check(z.int(), z.gte(0)), 0),
  }))();

export interface RequestedToolRun {
  tool: string;
  entity: Entity;
  requested: { tool_use_id: string; turn: number };
}

export interface AnalystTurnOutput {
  action: NextStep['action'];
  turn: number;
  requests: RequestedToolRun[];
}

function budgetOf(ctx: SessionContext): AnalystBudget {
  return {
    maxTurns: ctx.cfg.SIS_ANALYST_MAX_TURNS,
    maxToolCalls: ctx.cfg.SIS_ANALYST_MAX_TOOL_CALLS,
    maxTokens: ctx.cfg.SIS_ANALYST_MAX_TOKENS,
    maxSeconds: ctx.cfg.SIS_ANALYST_MAX_SECONDS,
    maxOutputTokensPerTurn: ctx.cfg.SIS_ANALYST_MAX_OUTPUT_TOKENS,
  };
}

function guardrailOf(ctx: SessionContext) {
  const { SIS_BEDROCK_GUARDRAIL_ID: id, SIS_BEDROCK_GUARDRAIL_VERSION: version } = ctx.cfg;
  return id && version ? { id, version } : undefined;
}

/**
 * The tools the model is offered: every tool the investigation declares (intel connectors included
 * when they are declared), each limited to the entity types it applies to, so the model can pivot
 * to a related domain from an IP investigation.
 */
function offeredTools(): OfferedTool[] {
  return toolDeclarations().map((tool) => ({
    name: tool.name,
    description: tool.description,
    appliesTo: (e: Entity) => tool.appliesTo(e),
  }));
}

function output(conversation: Conversation): AnalystTurnOutput {
  const turn = conversation.use.turns;
  if (conversation.outcome) return { action: 'done', turn, requests: [] };
  const requests = conversation.pending
    .filter((p) => !p.refused)
    .map((p) => ({
      tool: p.tool,
      entity: p.entity,
      requested: { tool_use_id: p.tool_use_id, turn: p.turn },
    }));
  return { action: requests.length ? 'run_tools' : 'continue', turn, requests };
}

const callsOf = (records: { call: ToolCall }[]) => records.map((r) => r.call);

function evidenceTools(calls: ToolCall[]): EvidenceTool[] {
  return calls.map((call) => ({
    tool: call.name,
    entity: call.input.entity,
    status: call.status,
    output: call.output ?? { error: call.error ?? 'no output' },
  }));
}

function historyOf(at: Date, record: TurnRecord): HistoryEntry[] {
  return [
    ...record.messages.map((text) => message(at, 'assistant', text)),
    ...record.events.map((e) => event(at, e.type, e.detail)),
  ];
}

export async function analystTurn(
  ctx: AnalystTurnContext,
  deps: AnalystDeps,
  rawInput: unknown,
): Promise<AnalystTurnOutput> {
  const input = TurnInput.parse(rawInput);
  const session = await loadSession(ctx, input.session_id);
  const stored = await ctx.analystState.get(input.session_id);
  let conversation = stored?.conversation;
  if (conversation && (conversation.outcome || conversation.use.turns > input.turn))
    return output(conversation);
  if (session.status !== 'active') return { action: 'done', turn: input.turn, requests: [] };

  const entity = session.entity;
  const persona = personaNamed(session.persona);
  const budget = budgetOf(ctx);
  const guardrail = guardrailOf(ctx);
  const tools = offeredTools();
  const at = ctx.now();
  const planned = callsOf(await ctx.toolResults.list(input.session_id));
  const requested = callsOf(await ctx.toolResults.list(input.session_id, true));
  const assessment = assessmentOf(planned);
  const prompt = systemPrompt(persona, deps.prompts);

  let untrusted: string[];
  if (!conversation) {
    const opening = openingText({
      entity,
      persona,
      riskScore: assessment.riskScore,
      verdict: assessment.verdict,
      findings: assessment.findings,
      tools: evidenceTools(planned),
    });
    conversation = startConversation({
      modelId: ctx.cfg.SIS_BEDROCK_MODEL_ID ?? '',
      promptVersion: prompt.version,
      persona,
      entity,
      startedAt: at.toISOString(),
      opening,
    });
    untrusted = [opening];
  } else {
    const results = new Map<string, RequestedResult>();
    for (const call of requested) {
      const id = (call as unknown as { tool_use_id?: string }).tool_use_id;
      if (!id) continue;
      results.set(
        id,
        call.status === 'succeeded'
          ? { status: 'succeeded', output: call.output }
          : { status: 'failed', error: call.error ?? 'The lookup failed.' },
      );
    }
    const answered = attachToolResults(conversation, results);
    conversation = answered.conversation;
    untrusted = answered.untrusted;
  }

  const save = async (next: Conversation, history: HistoryEntry[]) => {
    const saved = await ctx.analystState.save(input.session_id, next, stored?.revision ?? 0, history);
    if (saved === 'conflict') {
      const winner = await ctx.analystState.get(input.session_id);
      return output(winner?.conversation ?? next);
    }
    return output(next);
  };
  const stop = (reason: FallbackReason, detail?: string) =>
    save(fallback(conversation!, reason, detail), [
      event(at, 'analyst_fallback', { reason, ...(detail ? { detail } : {}) }),
    ]);

  const over = checkBudget(conversation, budget, at);
  if (over && over.status === 'fallback') return stop(over.reason, over.detail);

  try {
    if (guardrail && untrusted.length > 0 && (await deps.model.screen(guardrail, untrusted))) {
      return stop('guardrail_intervened', 'untrusted tool output');
    }
    const response = await deps.model.converse(
      nextRequest(conversation, { system: prompt.text, tools, budget, guardrail }),
    );
    const evidence = evidenceIndicators([entity, ...evidenceTools(planned), ...evidenceTools(requested)]);
    const turn = applyResponse(conversation, response, {
      budget,
      tools,
      evidence,
      findingIds: new Set(assessment.findings.map((f) => f.finding_id)),
      plannedTools: planned.map((call) => call.name),
    });
    return save(turn.conversation, historyOf(at, turn.record));
  } catch (error) {
    if (!(error instanceof ModelCallError)) throw error;
    logger.warn('analyst model call failed', { session_id: input.session_id, reason: error.reason, error });
    return stop(error.reason, error.message);
  }
}
