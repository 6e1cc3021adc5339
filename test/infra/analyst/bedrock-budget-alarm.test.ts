import { describe, expect, it } from 'vitest';
import { resourcesOfType, synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * Issue #27 item 4: the tenant's monthly Bedrock token budget reaches the analyst step, and an alarm
 * fires at 80 % of it (metric BedrockMonthlyBudgetUsedPercent, published after every analyst turn).
 */
const MODEL = 'us.anthropic.claude-3-5-haiku-20241022-v1:0';

function alarmsOf(context: Record<string, string>) {
  const json = synthTenantStack(context).template.toJSON() as TemplateJson;
  return { json, alarms: [...resourcesOfType(json, 'AWS::CloudWatch::Alarm').values()] };
}

describe('monthly Bedrock token budget', () => {
  it('alarms at 80 % of the budget and tells the analyst step the budget', () => {
    const { json, alarms } = alarmsOf({
      analyst: 'bedrock',
      bedrockModelId: MODEL,
      bedrockMonthlyTokenBudget: '20000000',
    });
    const budget = alarms.find((a) => a.Properties.MetricName === 'BedrockMonthlyBudgetUsedPercent');
    expect(budget?.Properties).toMatchObject({
      AlarmName: 'sis-test-bedrock-budget-80',
      Threshold: 80,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Statistic: 'Maximum',
    });
    expect((budget?.Properties.AlarmActions as unknown[])?.length).toBe(1);
    const turn = [...resourcesOfType(json, 'AWS::Lambda::Function').values()].find(
      (fn) => fn.Properties.FunctionName === 'sis-test-step-analyst-turn',
    );
    expect(turn).toBeDefined();
    expect((turn!.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      SIS_BEDROCK_MONTHLY_TOKEN_BUDGET: '20000000',
    });
  });

  it('has no budget alarm without a budget', () => {
    const { alarms } = alarmsOf({ analyst: 'bedrock', bedrockModelId: MODEL });
    expect(alarms.filter((a) => a.Properties.MetricName === 'BedrockMonthlyBudgetUsedPercent')).toEqual([]);
  });
});
