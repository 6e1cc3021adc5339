import { type Entity, entityKey, sameEntity } from '../core/entity';
import { normaliseEntity } from '../core/entity-normalisation';
import type { Verdict } from '../core/vocabulary';
import { FALLBACK_REASONS, type FallbackReason } from '../core/vocabulary';
import { type AnalystBudget, type BudgetUse, exhausted } from './budget';
import { MAX_TOOL_REQUESTS_PER_TURN } from './conversation-requests';
import type {
  Conversation,
  NextStep,
  OfferedTool,
  Outcome,
  PendingTool,
  TurnRecord,
} from './conversation-state';
import { type ConverseResult, type JsonDocument, STOP_REASONS, textOf, toolUsesOf } from './converse';
import { groundText } from './grounding';
import { parseSubmitReport, SUBMIT_REPORT_TOOL, type SubmitReport } from './submit-report';

export * from './conversation-requests';
export * from './conversation-state';
export { FALLBACK_REASONS, type FallbackReason };

/**
 * The analyst's conversation with the model, as pure state transitions. The workflow runs one
 * model turn per AnalystTurn state; between turns this state lives in DynamoDB. A turn is:
 * `nextRequest` → (the service calls Converse) → `applyResponse`, which says what happens next:
 * run the tools the model asked for, take another turn, or stop with a submitted report or a
 * fallback to the rules narrative. Results of requested tools come back with `attachToolResults`.
 */

/** Stops before a turn when a budget has run out. */
export function checkBudget(
  conversation: Conversation,
  budget: AnalystBudget,
  now: Date,
): Outcome | undefined {
  const exceeded = exhausted(conversation.use, budget, now);
  return exceeded ? { status: 'fallback', reason: 'budget_exhausted', detail: exceeded } : undefined;
}

export function fallback(conversation: Conversation, reason: FallbackReason, detail?: string): Conversation {
  return { ...conversation, outcome: { status: 'fallback', reason, ...(detail ? { detail } : {}) } };
}

export interface ResponseContext {
  budget: AnalystBudget;
  tools: readonly OfferedTool[];
  /** Indicator values in this investigation's tool outputs so far. */
  evidence: ReadonlySet<string>;
  /** finding_id values of the investigation. */
  findingIds: ReadonlySet<string>;
  /** Tools already run on the investigated entity (their outputs are in the opening message). */
  plannedTools: readonly string[];
}

function refusal(
  use: { name: string; input: JsonDocument },
  investigated: Entity,
  ctx: ResponseContext,
): { entity: Entity } | { refused: string; entity: Entity } {
  const tool = ctx.tools.find((t) => t.name === use.name);
  const raw = (use.input as { entity?: unknown } | null)?.entity;
  let entity = investigated;
  if (raw !== undefined) {
    try {
      entity = normaliseEntity(raw as never);
    } catch {
      return { refused: 'The entity is not a valid ip, domain, user or host.', entity };
    }
  }
  if (!tool) return { refused: `There is no tool named ${use.name}.`, entity };
  if (!sameEntity(entity, investigated) && !ctx.evidence.has(entity.value.toLowerCase())) {
    return {
      refused: 'Only the investigated entity or entities named in the tool outputs can be looked up.',
      entity,
    };
  }
  if (tool.appliesTo && !tool.appliesTo(entity)) {
    return { refused: `${use.name} does not apply to a ${entity.type}.`, entity };
  }
  if (sameEntity(entity, investigated) && ctx.plannedTools.includes(use.name)) {
    return { refused: `${use.name} already ran on the investigated entity; its output is above.`, entity };
  }
  return { entity };
}

function submitted(
  report: SubmitReport,
  ctx: ResponseContext,
): { outcome: Outcome; events: TurnRecord['events'] } {
  const removed: string[] = [];
  const ground = (text: string) => {
    const grounded = groundText(text, ctx.evidence);
    removed.push(...grounded.removed);
    return grounded.text;
  };
  const unknown = report.key_findings.filter((id) => !ctx.findingIds.has(id));
  const clean: SubmitReport = {
    narrative: ground(report.narrative),
    key_findings: report.key_findings.filter((id) => ctx.findingIds.has(id)),
    recommended_actions: report.recommended_actions.map(ground),
    questions_for_human: report.questions_for_human.map(ground),
  };
  const events: TurnRecord['events'] = [];
  if (removed.length) {
    events.push({
      type: 'analyst_indicator_removed',
      detail: { indicators: [...new Set(removed)].slice(0, 50) },
    });
  }
  if (unknown.length) {
    events.push({ type: 'analyst_unknown_finding_removed', detail: { finding_ids: unknown.slice(0, 20) } });
  }
  return {
    outcome: {
      status: 'submitted',
      report: clean,
      removed_indicators: [...new Set(removed)],
      unknown_findings: unknown,
    },
    events,
  };
}

const STOP_FALLBACK: Partial<Record<string, FallbackReason>> = {
  max_tokens: 'max_tokens',
  guardrail_intervened: 'guardrail_intervened',
  content_filtered: 'guardrail_intervened',
  malformed_tool_use: 'malformed_tool_use',
  malformed_model_output: 'malformed_tool_use',
  model_context_window_exceeded: 'context_window_exceeded',
};

/**
 * Folds one Converse response into the conversation: usage, the model's words (grounded), and what
 * happens next.
 */
export function applyResponse(
  before: Conversation,
  response: ConverseResult,
  ctx: ResponseContext,
): { conversation: Conversation; next: NextStep; record: TurnRecord } {
  const turn = before.use.turns + 1;
  const use: BudgetUse = {
    ...before.use,
    turns: turn,
    input_tokens: before.use.input_tokens + response.usage.inputTokens,
    output_tokens: before.use.output_tokens + response.usage.outputTokens,
  };
  const record: TurnRecord = {
    messages: [],
    events: [
      {
        type: 'analyst_turn',
        detail: {
          turn,
          model_id: before.model_id,
          stop_reason: response.stopReason,
          input_tokens: response.usage.inputTokens,
          output_tokens: response.usage.outputTokens,
          latency_ms: response.latencyMs,
        },
      },
    ],
  };
  let conversation: Conversation = { ...before, use };
  const done = (outcome: Outcome) => {
    conversation = { ...conversation, outcome };
    if (outcome.status === 'fallback') {
      record.events.push({
        type: 'analyst_fallback',
        detail: { reason: outcome.reason, ...(outcome.detail ? { detail: outcome.detail } : {}) },
      });
    }
    return { conversation, next: { action: 'done', outcome } as NextStep, record };
  };

  const stopFallback = STOP_FALLBACK[response.stopReason];
  if (stopFallback) return done({ status: 'fallback', reason: stopFallback, detail: response.stopReason });
  if (!(STOP_REASONS as readonly string[]).includes(response.stopReason) || !response.message) {
    return done({ status: 'fallback', reason: 'model_error', detail: `stopReason ${response.stopReason}` });
  }

  const text = textOf(response.message);
  if (text) {
    const grounded = groundText(text, ctx.evidence);
    record.messages.push(grounded.text);
    if (grounded.removed.length) {
      record.events.push({
        type: 'analyst_indicator_removed',
        detail: { indicators: grounded.removed.slice(0, 50) },
      });
    }
  }
  conversation = { ...conversation, messages: [...conversation.messages, response.message] };
  const uses = toolUsesOf(response.message);
  if (uses.some((u) => typeof u.toolUseId !== 'string' || typeof u.name !== 'string')) {
    return done({ status: 'fallback', reason: 'malformed_tool_use', detail: 'tool use without id or name' });
  }

  const submit = uses.find((u) => u.name === SUBMIT_REPORT_TOOL);
  if (submit) {
    const parsed = parseSubmitReport(submit.input);
    if (!parsed.ok) return done({ status: 'fallback', reason: 'invalid_report', detail: parsed.problems });
    const result = submitted(parsed.value, ctx);
    record.events.push(...result.events, {
      type: 'analyst_report_submitted',
      detail: {
        turn,
        key_findings: result.outcome.status === 'submitted' ? result.outcome.report.key_findings : [],
      },
    });
    return done(result.outcome);
  }

  const tokensLeft = use.input_tokens + use.output_tokens < ctx.budget.maxTokens;
  if (uses.length === 0) {
    // The model answered in prose without submitting: ask once, then give up.
    if (before.nudged || turn >= ctx.budget.maxTurns || !tokensLeft) {
      return done({
        status: 'fallback',
        reason: 'no_report',
        detail: `no ${SUBMIT_REPORT_TOOL} after ${turn} turns`,
      });
    }
    conversation = {
      ...conversation,
      nudged: true,
      force_submit: true,
      messages: [
        ...conversation.messages,
        { role: 'user', content: [{ text: `Call ${SUBMIT_REPORT_TOOL} to finish the investigation.` }] },
      ],
    };
    return { conversation, next: { action: 'continue' }, record };
  }

  if (turn >= ctx.budget.maxTurns || !tokensLeft) {
    return done({
      status: 'fallback',
      reason: 'budget_exhausted',
      detail: turn >= ctx.budget.maxTurns ? 'turns' : 'tokens',
    });
  }

  const pending: PendingTool[] = [];
  let toolCalls = use.tool_calls;
  const seen = new Set<string>();
  for (const use_ of uses) {
    const check = refusal(use_, before.entity, ctx);
    const key = `${use_.name}|${entityKey(check.entity)}`;
    let refused = 'refused' in check ? check.refused : undefined;
    if (!refused && seen.has(key)) refused = 'Duplicate request in the same turn.';
    if (!refused && toolCalls >= ctx.budget.maxToolCalls) refused = 'The lookup budget is used up.';
    if (!refused && pending.filter((p) => !p.refused).length >= MAX_TOOL_REQUESTS_PER_TURN) {
      refused = `At most ${MAX_TOOL_REQUESTS_PER_TURN} lookups per turn.`;
    }
    seen.add(key);
    if (!refused) toolCalls += 1;
    pending.push({
      tool_use_id: use_.toolUseId,
      tool: use_.name,
      entity: check.entity,
      turn,
      ...(refused ? { refused } : {}),
    });
  }
  const forceSubmit = toolCalls >= ctx.budget.maxToolCalls || turn + 1 >= ctx.budget.maxTurns;
  conversation = {
    ...conversation,
    use: { ...use, tool_calls: toolCalls },
    pending,
    force_submit: forceSubmit,
  };
  const requests = pending.filter((p) => !p.refused);
  return {
    conversation,
    next: requests.length ? { action: 'run_tools', requests } : { action: 'continue' },
    record,
  };
}

/** Words that declare the entity harmless: a narrative saying them over a suspicious verdict is refused. */
const ALL_CLEAR =
  /\b(benign|harmless|false positive|no (further )?action (is )?(needed|required)|safe to (ignore|close)|can be (ignored|closed))\b/i;

/**
 * The narrative may explain the computed verdict, never overturn it: a narrative that clears a
 * suspicious or malicious entity (the typical effect of a prompt injection) is not used.
 */
export function contradictsVerdict(narrative: string, verdict: Verdict): boolean {
  if (verdict !== 'suspicious' && verdict !== 'malicious') return false;
  return ALL_CLEAR.test(narrative.replace(/\bnot (benign|harmless|a false positive)\b/gi, ''));
}
