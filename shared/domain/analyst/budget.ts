/**
 * Limits on one investigation's conversation with the model. Every limit ends the conversation with
 * the rules narrative (never a failed investigation); the tool-call limit first refuses further
 * lookups and asks the model to submit its report.
 */
export interface AnalystBudget {
  /** Model calls (turns) per investigation. */
  maxTurns: number;
  /** Tools the model may request in total (pivots included). */
  maxToolCalls: number;
  /** Input + output tokens over all turns. */
  maxTokens: number;
  /** Wall time from the first turn; checked before each turn. */
  maxSeconds: number;
  /** `inferenceConfig.maxTokens` of each turn. */
  maxOutputTokensPerTurn: number;
}

export const DEFAULT_ANALYST_BUDGET: AnalystBudget = {
  maxTurns: 6,
  maxToolCalls: 8,
  maxTokens: 60_000,
  maxSeconds: 300,
  maxOutputTokensPerTurn: 2_000,
};

export interface BudgetUse {
  turns: number;
  tool_calls: number;
  input_tokens: number;
  output_tokens: number;
  started_at: string;
}

export type BudgetExceeded = 'turns' | 'tokens' | 'time';

/** What has run out before the next turn, if anything. */
export function exhausted(use: BudgetUse, budget: AnalystBudget, now: Date): BudgetExceeded | undefined {
  if (use.turns >= budget.maxTurns) return 'turns';
  if (use.input_tokens + use.output_tokens >= budget.maxTokens) return 'tokens';
  if (now.getTime() - Date.parse(use.started_at) >= budget.maxSeconds * 1000) return 'time';
  return undefined;
}
