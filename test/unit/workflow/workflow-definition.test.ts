import { createRequire } from 'node:module';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import {
  placeholdersIn,
  readWorkflowDefinitionText,
  substituteDefinition,
  toolMapItems,
  toolStepFunctions,
  WORKFLOW_STEPS,
} from '../../../infra/workflow/definition';
import { TOOL_NAMES } from '../../../shared/domain/core/vocabulary';
import { connectorOfTool } from '../../../shared/domain/intel/connectors';

type AnyState = Record<string, unknown> & { Type: string };
/** asl-validator (the validator aws-local-stepfunctions uses) ships no type declarations. */
type AslValidator = (
  definition: unknown,
  options: { checkArn: boolean; checkPaths: boolean },
) => { isValid: boolean; errorsText: (separator: string) => string };
const aslValidator = createRequire(import.meta.url)('asl-validator') as AslValidator;

const text = readWorkflowDefinitionText();
const arns = Object.fromEntries(
  WORKFLOW_STEPS.map((s) => [
    s.substitution,
    `arn:aws:lambda:us-east-1:123456789012:function:${s.functionName}`,
  ]),
);
const definition = substituteDefinition(text, arns) as StateMachineDefinition;
const states = definition.States as unknown as Record<string, AnyState>;
type MapState = AnyState & { ItemProcessor: { States: Record<string, AnyState> } };
const runTools = states.RunTools as AnyState & { Branches: { States: Record<string, AnyState> }[] };
const branchStates = runTools.Branches.map((branch) => branch.States);
const builtInMap = branchStates[0]?.RunBuiltInTools as MapState;
const intelMap = branchStates[1]?.RunIntelTools as MapState;
const iterationStates = builtInMap.ItemProcessor.States;
const intelIterationStates = intelMap.ItemProcessor.States;
const requestedStates = (states.RunRequestedTools as MapState).ItemProcessor.States;

function tasks(): [string, AnyState][] {
  return [
    ...Object.entries(states),
    ...Object.entries(iterationStates),
    ...Object.entries(intelIterationStates),
    ...Object.entries(requestedStates),
  ].filter(([, s]) => s.Type === 'Task');
}

const RUN_TOOL_ARN = arns.RunToolFunctionArn;
const RUN_INTEL_ARN = arns.RunIntelFunctionArn;

/** Runs the ASL with stand-in steps; `fail` names a state whose step throws. */
async function run(
  fail: { state: string; tool?: string } | undefined,
  plan: { tools?: readonly string[]; intel_tools?: readonly string[]; analyst?: string } = {},
) {
  const calls: { state: string; input: Record<string, unknown> }[] = [];
  const step = (state: string, result: (input: Record<string, unknown>) => unknown) => (input: unknown) => {
    const value = input as Record<string, unknown>;
    calls.push({ state, input: value });
    if (fail?.state === state && (fail.tool === undefined || value.tool === fail.tool)) {
      throw Object.assign(new Error(`${state} failed`), { name: 'StepError' });
    }
    return result(value) as never;
  };
  const machine = new StateMachine(definition);
  const execution = machine.run(
    { session_id: 's_test' },
    {
      overrides: {
        taskResourceLocalHandlers: {
          MarkActive: step('MarkActive', () => ({
            entity: { type: 'ip', value: '203.0.113.7' },
            tools: plan.tools ?? ['a', 'b', 'c', 'd', 'e'],
            intel_tools: plan.intel_tools ?? [],
            tlp: 'amber',
            refresh_intel: false,
            // MarkActive always names the analyst mode: the built-in tools' Map passes it on.
            analyst: plan.analyst ?? 'rules',
          })),
          RunTool: step('RunTool', (i) => ({ tool: i.tool, status: 'succeeded', recorded: true })),
          RunIntel: step('RunIntel', (i) => ({ tool: i.tool, status: 'succeeded', recorded: true })),
          // The model asks for every tool once, then ends its turns.
          AnalystTurn: step('AnalystTurn', (i) =>
            i.turn === 0
              ? {
                  action: 'run_tools',
                  turn: 1,
                  requests: TOOL_NAMES.map((tool, n) => ({
                    entity: { type: 'ip', value: '203.0.113.7' },
                    tool,
                    requested: { tool_use_id: `tu_${n}`, turn: 1 },
                  })),
                }
              : { action: 'done', turn: 2, requests: [] },
          ),
          RunRequestedTool: step('RunRequestedTool', (i) => ({ tool: i.tool, status: 'succeeded' })),
          RunRequestedIntel: step('RunRequestedIntel', (i) => ({ tool: i.tool, status: 'succeeded' })),
          AssessWithAnalyst: step('AssessWithAnalyst', () => ({ report: { verdict: 'benign' } })),
          Assess: step('Assess', () => ({ report: { verdict: 'benign' } })),
          Persist: step('Persist', (i) => ({ session_id: i.session_id, status: 'completed' })),
          MarkFailed: step('MarkFailed', () => ({ recorded: true })),
        },
      },
    },
  );
  try {
    return { output: await execution.result, calls };
  } catch (error) {
    return { error: error as Error, calls };
  }
}

describe('investigation workflow definition (ASL)', () => {
  it('is valid ASL for the local interpreter and for asl-validator with ARN and path checks', () => {
    expect(() => new StateMachine(definition)).not.toThrow();
    const result = aslValidator(definition, { checkArn: true, checkPaths: true });
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('names exactly the declared step functions in its placeholders', () => {
    expect(placeholdersIn(text).sort()).toEqual(WORKFLOW_STEPS.map((s) => s.substitution).sort());
    expect(() => substituteDefinition(text, {})).toThrow(/No value for workflow placeholder/);
  });

  it('is a Standard workflow with an overall deadline, so no run can stay active forever', () => {
    expect(definition.TimeoutSeconds).toBeGreaterThan(0);
    expect(definition.TimeoutSeconds).toBeLessThanOrEqual(24 * 3600);
  });

  it('gives every Task a timeout above its Lambda timeout and retries on transient Lambda errors', () => {
    for (const [name, state] of tasks()) {
      const step = WORKFLOW_STEPS.find((s) => String(state.Resource).endsWith(`:${s.functionName}`));
      expect(step, name).toBeDefined();
      expect(state.TimeoutSeconds, name).toBeGreaterThan(step!.timeoutSeconds);
      const retried = (state.Retry as { ErrorEquals: string[] }[]).flatMap((r) => r.ErrorEquals);
      expect(retried.includes('Lambda.ServiceException') || retried.includes('States.ALL'), name).toBe(true);
    }
  });

  it('routes every failure outside a tool to MarkFailed and then to a Fail state', () => {
    for (const [name, state] of Object.entries(states)) {
      if (!['Task', 'Map', 'Parallel'].includes(state.Type) || name === 'MarkFailed') continue;
      const catchers = state.Catch as { ErrorEquals: string[]; Next: string }[];
      // The analyst model's states fall back to the rules narrative, never fail the run (docs/analyst.md).
      const next = ['AnalystTurn', 'RunRequestedTools'].includes(name) ? 'AssessWithAnalyst' : 'MarkFailed';
      expect(catchers, name).toEqual([expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: next })]);
    }
    expect(states.MarkFailed?.Next).toBe('Failed');
    expect(states.Failed?.Type).toBe('Fail');
  });

  it('runs the built-in and the connector tools side by side, each list an inline Map of at most 4 with a Catch per tool', () => {
    expect(runTools.Type).toBe('Parallel');
    expect(runTools.Branches).toHaveLength(2);
    for (const [map, task, failed] of [
      [builtInMap, 'RunTool', 'ToolFailed'],
      [intelMap, 'RunIntel', 'IntelToolFailed'],
    ] as const) {
      expect(map.Type).toBe('Map');
      expect(map.MaxConcurrency).toBe(4);
      expect(map.ItemProcessor.States[task]?.Catch).toEqual([
        expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: failed }),
      ]);
      expect(map.ItemProcessor.States[failed]?.Parameters).toEqual(iterationStates.ToolFailed?.Parameters);
    }
    expect(builtInMap.ItemsPath).toBe('$.plan.tools');
    expect(intelMap.ItemsPath).toBe('$.plan.intel_tools');
  });

  it('has no per-tool Choice on the planned tools’ path (every state is a billed transition)', () => {
    const types = (map: MapState) => Object.values(map.ItemProcessor.States).map((state) => state.Type);
    expect(types(builtInMap).sort()).toEqual(['Pass', 'Task']);
    expect(types(intelMap).sort()).toEqual(['Pass', 'Task']);
  });

  it('runs the planned tools in their list’s step, and routes the analyst’s requests by name (intel_* -> step-run-intel)', async () => {
    const connectorTools = TOOL_NAMES.filter((tool) => connectorOfTool(tool) !== undefined);
    const builtInTools = TOOL_NAMES.filter((tool) => connectorOfTool(tool) === undefined);
    expect(connectorTools.length).toBeGreaterThan(0);
    const { error, calls } = await run(undefined, {
      tools: builtInTools,
      intel_tools: connectorTools,
      analyst: 'bedrock',
    });
    expect(error).toBeUndefined();
    const toolsOf = (state: string) => calls.filter((c) => c.state === state).map((c) => c.input.tool);
    expect(toolsOf('RunTool').sort()).toEqual([...builtInTools].sort());
    expect(toolsOf('RunIntel').sort()).toEqual([...connectorTools].sort());
    expect(toolsOf('RunRequestedTool').sort()).toEqual([...builtInTools].sort());
    expect(toolsOf('RunRequestedIntel').sort()).toEqual([...connectorTools].sort());
    expect(iterationStates.RunTool?.Resource).toBe(RUN_TOOL_ARN);
    expect(intelIterationStates.RunIntel?.Resource).toBe(RUN_INTEL_ARN);
    expect(requestedStates.RunRequestedTool?.Resource).toBe(RUN_TOOL_ARN);
    expect(requestedStates.RunRequestedIntel?.Resource).toBe(RUN_INTEL_ARN);
    // Both lists reach AssessWithAnalyst, one field each (ASL has no list concatenation).
    const assess = calls.find((c) => c.state === 'AssessWithAnalyst')!.input;
    expect((assess.tool_results as { tool: string }[]).map((r) => r.tool)).toEqual(builtInTools);
    expect((assess.intel_results as { tool: string }[]).map((r) => r.tool)).toEqual(connectorTools);
    // What the bench and the cost model count as one invocation per tool, and each Map's item count.
    expect(toolStepFunctions()).toEqual(['step-run-tool', 'step-run-intel']);
    expect(toolMapItems({ 'step-run-tool': 4, 'step-run-intel': 2 })).toEqual({
      '$.plan.tools': 4,
      '$.plan.intel_tools': 2,
      '$.analyst.requests': 6,
    });
  });

  it('gives the intel Task of each tool Map the same timeout, retries and catch as its run-tool Task', () => {
    const handling = (state: AnyState | undefined) => ({
      TimeoutSeconds: state?.TimeoutSeconds,
      Retry: state?.Retry,
      Catch: state?.Catch,
      End: state?.End,
    });
    const catchOf = (state: AnyState | undefined) =>
      ((state?.Catch ?? []) as { Next: string }[]).map((c) => ({ ...c, Next: 'the failed-tool Pass' }));
    expect({
      ...handling(intelIterationStates.RunIntel),
      Catch: catchOf(intelIterationStates.RunIntel),
    }).toEqual({
      ...handling(iterationStates.RunTool),
      Catch: catchOf(iterationStates.RunTool),
    });
    expect(handling(requestedStates.RunRequestedIntel)).toEqual(handling(requestedStates.RunRequestedTool));
    const timeoutOf = (name: string) => WORKFLOW_STEPS.find((s) => s.functionName === name)?.timeoutSeconds;
    expect(timeoutOf('step-run-intel')).toBe(timeoutOf('step-run-tool'));
  });

  it('turns a failing connector tool into a failed tool result and still completes', async () => {
    const { error, calls } = await run(
      { state: 'RunIntel', tool: 'intel_abuseipdb' },
      { tools: ['ip_classification'], intel_tools: ['intel_abuseipdb', 'intel_crowdsec'] },
    );
    expect(error).toBeUndefined();
    const assess = calls.find((c) => c.state === 'Assess')!.input;
    expect(assess.tool_results).toEqual([{ tool: 'ip_classification', status: 'succeeded', recorded: true }]);
    expect(assess.intel_results).toEqual([
      { tool: 'intel_abuseipdb', status: 'failed', recorded: false, error: 'StepError' },
      { tool: 'intel_crowdsec', status: 'succeeded', recorded: true },
    ]);
    expect(calls.filter((c) => c.state === 'RunIntel')).toHaveLength(2);
    expect(calls.some((c) => c.state === 'MarkFailed')).toBe(false);
  });

  it('runs MarkActive, one RunTool per tool, Assess and Persist, and succeeds', async () => {
    const { output, error, calls } = await run(undefined);
    expect(error).toBeUndefined();
    expect(output).toEqual({ session_id: 's_test', status: 'completed' });
    const order = calls.map((c) => c.state);
    expect(order[0]).toBe('MarkActive');
    expect(order.filter((s) => s === 'RunTool')).toHaveLength(5);
    expect(order.slice(-2)).toEqual(['Assess', 'Persist']);
    const toolInput = calls.find((c) => c.state === 'RunTool')!.input;
    expect(toolInput).toEqual({
      session_id: 's_test',
      entity: { type: 'ip', value: '203.0.113.7' },
      tool: 'a',
      tlp: 'amber',
      refresh_intel: false,
      analyst: 'rules',
    });
    // The state carries compact results only; the report goes to Persist, nothing else.
    expect(calls.find((c) => c.state === 'Persist')!.input).toEqual({
      session_id: 's_test',
      report: { verdict: 'benign' },
    });
  });

  it('turns a failing tool into a failed tool result and still completes', async () => {
    const { error, calls } = await run({ state: 'RunTool', tool: 'c' });
    expect(error).toBeUndefined();
    const assess = calls.find((c) => c.state === 'Assess')!.input;
    expect(assess.tool_results).toContainEqual({
      tool: 'c',
      status: 'failed',
      recorded: false,
      error: 'StepError',
    });
    expect((assess.tool_results as unknown[]).length).toBe(5);
    // No connector configured: the connector Map ran nothing.
    expect(assess.intel_results).toEqual([]);
    expect(calls.some((c) => c.state === 'RunIntel')).toBe(false);
    expect(calls.some((c) => c.state === 'MarkFailed')).toBe(false);
  });

  it.each(['MarkActive', 'Assess', 'Persist'])(
    'marks the run failed when %s fails, then fails',
    async (state) => {
      const { error, calls } = await run({ state });
      expect(error?.message).toMatch(/InvestigationFailed|Fail state|failed/);
      const markFailed = calls.find((c) => c.state === 'MarkFailed');
      expect(markFailed?.input).toEqual({
        session_id: 's_test',
        error: { Error: 'StepError', Cause: `${state} failed` },
      });
      expect(calls.some((c) => c.state === 'Persist' && state !== 'Persist')).toBe(false);
    },
  );
});
