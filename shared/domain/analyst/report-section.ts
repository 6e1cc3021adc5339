import type { AnalystSection, Report } from '../core/vocabulary';
import { type Conversation, contradictsVerdict, type FallbackReason } from './conversation';
import { estimateCostUsd, PRICE_SOURCE } from './prices';

export type { AnalystSection };

export function analystSection(
  conversation: Conversation | undefined,
  report: Pick<Report, 'summary' | 'verdict' | 'recommendations'>,
  modelId: string,
): { section: AnalystSection; fallback?: { reason: FallbackReason; detail?: string; recorded: boolean } } {
  const use = conversation?.use ?? { turns: 0, tool_calls: 0, input_tokens: 0, output_tokens: 0 };
  const base = {
    configured_mode: 'bedrock' as const,
    model_id: conversation?.model_id ?? modelId,
    prompt_version: conversation?.prompt_version ?? null,
    turns: use.turns,
    tool_calls: use.tool_calls,
    input_tokens: use.input_tokens,
    output_tokens: use.output_tokens,
    estimated_cost_usd: estimateCostUsd(
      conversation?.model_id ?? modelId,
      use.input_tokens,
      use.output_tokens,
    ),
    price_source: PRICE_SOURCE,
  };
  const rules = (reason: FallbackReason, recorded: boolean, detail?: string) => ({
    section: {
      ...base,
      mode: 'rules' as const,
      fallback_reason: reason,
      narrative: report.summary,
      key_findings: [],
      recommended_actions: [],
      questions_for_human: [],
      removed_indicators: [],
    },
    fallback: { reason, recorded, ...(detail ? { detail } : {}) },
  });
  const outcome = conversation?.outcome;
  if (!outcome) return rules('analyst_step_failed', false, 'the conversation did not finish');
  if (outcome.status === 'fallback') return rules(outcome.reason, true, outcome.detail);
  const words = [outcome.report.narrative, ...outcome.report.recommended_actions].join('\n');
  if (contradictsVerdict(words, report.verdict)) {
    return rules('narrative_contradicts_verdict', false, `verdict is ${report.verdict}`);
  }
  return {
    section: {
      ...base,
      mode: 'bedrock',
      narrative: outcome.report.narrative,
      key_findings: outcome.report.key_findings,
      recommended_actions: outcome.report.recommended_actions,
      questions_for_human: outcome.report.questions_for_human,
      removed_indicators: outcome.removed_indicators,
    },
  };
}
