import { beforeAll, describe, expect, it } from 'vitest';
import { physicalFunctionName } from '../../../infra/constructs/service-function';
import { parseTenantSettings } from '../../../infra/settings';
import { readWorkflowDefinitionText } from '../../../infra/workflow/definition';
import {
  type CfnResource,
  resourcesOfType,
  rolePolicies,
  synthTenantStack,
  type TemplateJson,
} from '../../support/synth';

/**
 * The tenant stack with analyst=bedrock (synthesised with cdk-nag: a finding would fail the synth):
 * the analyst step alone may invoke exactly the configured inference profile (and its model only
 * through it) and apply exactly the configured guardrail; the workflow's analyst states are wired.
 */
const MODEL = 'us.anthropic.claude-3-5-haiku-20241022-v1:0';
let template: TemplateJson;

beforeAll(() => {
  template = synthTenantStack({
    analyst: 'bedrock',
    bedrockModelId: MODEL,
    bedrockGuardrailId: 'abc123guard',
    bedrockGuardrailVersion: '3',
    analystMaxTurns: '4',
  }).template.toJSON() as TemplateJson;
});

function functionNamed(name: string): [string, CfnResource] {
  const found = [...resourcesOfType(template, 'AWS::Lambda::Function')].find(
    ([, fn]) => fn.Properties.FunctionName === physicalFunctionName('test', name),
  );
  if (!found) throw new Error(`no function ${name}`);
  return found;
}

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
function bedrockStatements(): { role: string; statement: Statement }[] {
  return rolePolicies(template).flatMap((policy) =>
    (policy.statements as Statement[])
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('bedrock:')))
      .map((statement) => ({ role: JSON.stringify(policy.roles), statement })),
  );
}

describe('analyst=bedrock in the tenant stack', () => {
  it('lets only the analyst step invoke exactly the configured profile and guardrail', () => {
    const [, analyst] = functionNamed('step-analyst-turn');
    const analystRole = JSON.stringify([
      (analyst.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0],
    ]);
    const grants = bedrockStatements();
    expect(grants.every((g) => g.role === analystRole)).toBe(true);
    const rendered = grants.map((g) => JSON.stringify(g.statement));
    expect(rendered).toHaveLength(3);
    expect(grants.map((g) => g.statement.Action)).toEqual([
      'bedrock:InvokeModel',
      'bedrock:InvokeModel',
      'bedrock:ApplyGuardrail',
    ]);
    expect(rendered[0]).toContain(`:inference-profile/${MODEL}`);
    expect(rendered[0]).not.toContain('*');
    expect(rendered[1]).toContain(':bedrock:*::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0');
    expect(grants[1]!.statement.Condition).toEqual({
      StringEquals: { 'bedrock:InferenceProfileArn': expect.anything() },
    });
    expect(JSON.stringify(grants[1]!.statement.Condition)).toContain(`:inference-profile/${MODEL}`);
    expect(rendered[2]).toContain(':guardrail/abc123guard');
  });

  it('gives the analyst settings to the steps that use them', () => {
    for (const name of ['step-mark-active', 'step-analyst-turn', 'step-assess']) {
      const env = (functionNamed(name)[1].Properties.Environment as { Variables: Record<string, string> })
        .Variables;
      expect(env).toMatchObject({
        SIS_ANALYST: 'bedrock',
        SIS_BEDROCK_MODEL_ID: MODEL,
        SIS_BEDROCK_GUARDRAIL_ID: 'abc123guard',
        SIS_BEDROCK_GUARDRAIL_VERSION: '3',
        SIS_ANALYST_MAX_TURNS: '4',
      });
    }
    const runTool = (
      functionNamed('step-run-tool')[1].Properties.Environment as { Variables: Record<string, string> }
    ).Variables;
    expect(runTool.SIS_ANALYST).toBeUndefined();
  });

  it('wires the analyst states: choice after the tools, turns, requested lookups, assess with the analyst', () => {
    const [, machine] = [...resourcesOfType(template, 'AWS::StepFunctions::StateMachine')][0]!;
    const substitutions = machine.Properties.DefinitionSubstitutions as Record<string, unknown>;
    const [analystId] = functionNamed('step-analyst-turn');
    expect(JSON.stringify(substitutions.AnalystTurnFunctionArn)).toContain(analystId);
    const { States } = JSON.parse(readWorkflowDefinitionText()) as { States: Record<string, any> };
    expect(States.RunTools.Next).toBe('ChooseAnalyst');
    expect(States.ChooseAnalyst.Choices[0].Next).toBe('AnalystStart');
    expect(States.ChooseAnalyst.Default).toBe('Assess');
    expect(States.AnalystStart.Next).toBe('AnalystTurn');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an ASL definitionSubstitutions placeholder
    expect(States.AnalystTurn.Resource).toBe('${AnalystTurnFunctionArn}');
    expect(States.AnalystTurn.Next).toBe('AnalystNext');
    expect(States.AnalystTurn.Catch[0].Next).toBe('AssessWithAnalyst');
    expect(States.AnalystNext.Choices.map((c: { Next: string }) => c.Next)).toEqual([
      'RunRequestedTools',
      'AnalystTurn',
    ]);
    expect(States.AnalystNext.Default).toBe('AssessWithAnalyst');
    const requested = States.RunRequestedTools.ItemProcessor.States.RunRequestedTool;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an ASL definitionSubstitutions placeholder
    expect(requested.Resource).toBe('${RunToolFunctionArn}');
    expect(States.RunRequestedTools.Next).toBe('AnalystTurn');
    expect(States.AssessWithAnalyst.Parameters.analyst).toBe(true);
    expect(States.AssessWithAnalyst.Next).toBe('Persist');
  });

  it('refuses bedrock without a model, and a guardrail without its version', () => {
    expect(() => parseTenantSettings({ tenant: 't', analyst: 'bedrock' })).toThrow(
      /bedrockModelId is required/,
    );
    expect(() =>
      parseTenantSettings({
        tenant: 't',
        analyst: 'bedrock',
        bedrockModelId: MODEL,
        bedrockGuardrailId: 'g1',
      }),
    ).toThrow(/together/);
  });
});
