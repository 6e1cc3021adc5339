import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXPRESS_MAX_SECONDS, type WorkflowType } from '../../shared/domain/investigation/workflow-type';

/**
 * The investigation workflow is one ASL file deployed by CDK (with `definitionSubstitutions`) and
 * run locally by aws-local-stepfunctions; this module is what both sides share: where the file is,
 * which `${...}` placeholder names which step function, and the execution statuses written back to a
 * session by the status-change function.
 */
export const WORKFLOW_DEFINITION_PATH = resolve(
  dirname(fileURLToPath(import.meta.url)),
  'investigation.asl.json',
);

export interface WorkflowStep {
  /** `${...}` placeholder in the ASL Resource field. */
  substitution: string;
  /** Folder under functions/ holding the step handler. */
  functionName: string;
  description: string;
  /** Lambda timeout; the Task state's TimeoutSeconds in the ASL is set above it. */
  timeoutSeconds: number;
  /**
   * Ships the offline enrichment data (ServiceFunction `offlineData`): only the step whose tools read
   * it, so no other function's asset or cold start grows (the bench checks the bundles).
   */
  offlineData?: true;
  /**
   * What the step does with the intelligence connectors. `run`: runs their tools (`intel_*`); the
   * stack tells it which connectors are enabled and grants it the connectors' secret; no other step
   * reads a key or the intel table. `plan`: plans a run's tools, so it is told which connectors are
   * enabled (their flags and the secret's name, never a grant) and lists their tools.
   */
  intelConnectors?: 'plan' | 'run';
}

export const WORKFLOW_STEPS: readonly WorkflowStep[] = [
  {
    substitution: 'MarkActiveFunctionArn',
    functionName: 'step-mark-active',
    description: 'Investigation step: session initialized -> active, plans the tools',
    timeoutSeconds: 30,
    intelConnectors: 'plan',
  },
  {
    substitution: 'RunToolFunctionArn',
    functionName: 'step-run-tool',
    description: 'Investigation step: runs one built-in enrichment tool and records the tool call',
    timeoutSeconds: 120,
    offlineData: true,
  },
  {
    // Runs the plan's `intel_tools` (the RunIntelTools Map beside RunBuiltInTools, in a Parallel) and
    // the `intel_*` lookups the analyst model asks for (a Choice in RunRequestedTools), with RunTool's
    // timeout, retries and catch: an outside source failing is a failed tool call.
    substitution: 'RunIntelFunctionArn',
    functionName: 'step-run-intel',
    description: 'Investigation step: runs one threat-intelligence connector tool and records the tool call',
    timeoutSeconds: 120,
    intelConnectors: 'run',
  },
  {
    substitution: 'AssessFunctionArn',
    functionName: 'step-assess',
    description: 'Investigation step: scores the tool results and builds the report',
    timeoutSeconds: 30,
  },
  {
    substitution: 'PersistFunctionArn',
    functionName: 'step-persist',
    description: 'Investigation step: graph edges, search index, report and completed status',
    timeoutSeconds: 30,
  },
  {
    substitution: 'AnalystTurnFunctionArn',
    functionName: 'step-analyst-turn',
    description: 'Investigation step (bedrock analyst mode): one model turn of the analyst conversation',
    // Bedrock calls: SIS_BEDROCK_TIMEOUT_SECONDS per attempt with throttling retries.
    timeoutSeconds: 280,
  },
  {
    substitution: 'MarkFailedFunctionArn',
    functionName: 'step-mark-failed',
    description: 'Investigation step: records why the run failed',
    timeoutSeconds: 30,
  },
];

/** Receives EventBridge "Step Functions Execution Status Change" events for the statuses below. */
export const STATUS_CHANGE_FUNCTION = 'workflow-status-change';

/** Execution outcomes that must be written back to the session (SUCCEEDED already is, by Persist). */
export const WRITE_BACK_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;
export type WriteBackStatus = (typeof WRITE_BACK_STATUSES)[number];

/**
 * Scheduled every few minutes: ends sessions whose run never started or never reported back
 * (shared/services/workflow/stale-session-sweeper.ts), after DescribeExecution on their run.
 */
export const STALE_SESSION_SWEEP_FUNCTION = 'sweep-stale-sessions';
export const STALE_SESSION_SWEEP_MINUTES = 5;

export function readWorkflowDefinitionText(): string {
  return readFileSync(WORKFLOW_DEFINITION_PATH, 'utf8');
}

/**
 * The definition one state machine type runs: the file as it is for Standard; for Express the same
 * states with the top-level TimeoutSeconds lowered to Express's own 5-minute limit (Step Functions
 * ends an Express execution then whatever the definition says; stating it keeps the definition
 * honest and the local runtime's Express runs bounded alike). Nothing else differs.
 */
export function definitionTextFor(type: WorkflowType, definitionText = readWorkflowDefinitionText()): string {
  if (type === 'standard') return definitionText;
  const definition = JSON.parse(definitionText) as { TimeoutSeconds?: number };
  const timeout = Math.min(workflowTimeoutSeconds(definitionText), EXPRESS_MAX_SECONDS);
  return JSON.stringify({ ...definition, TimeoutSeconds: timeout }, null, 2);
}

/** The definition's top-level TimeoutSeconds: Step Functions ends every run after it. */
export function workflowTimeoutSeconds(definitionText = readWorkflowDefinitionText()): number {
  const timeout = (JSON.parse(definitionText) as { TimeoutSeconds?: unknown }).TimeoutSeconds;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0) {
    throw new Error('The investigation workflow definition must set a top-level TimeoutSeconds.');
  }
  return timeout;
}

interface AslState {
  Type?: string;
  Resource?: string;
  ItemsPath?: string;
  ItemProcessor?: AslStates;
  Branches?: AslStates[];
}
interface AslStates {
  States: Record<string, AslState>;
}

interface ToolMap {
  /** The Map state's name. */
  name: string;
  /** Where its items come from, e.g. `$.plan.tools`. */
  itemsPath: string;
  /** The step functions its iterations invoke, one invocation per tool, in WORKFLOW_STEPS order. */
  functionNames: string[];
}

/**
 * The Map states that run tools, wherever they sit (top level or in a Parallel's branches), with the
 * step functions their Task states invoke: read from the definition, so counting "tool invocations"
 * (bench, cost) and the transitions per tool follow the ASL.
 */
function toolMaps(definitionText = readWorkflowDefinitionText()): ToolMap[] {
  const maps: ToolMap[] = [];
  const walk = (states: Record<string, AslState>) => {
    for (const [name, state] of Object.entries(states)) {
      for (const branch of state.Branches ?? []) walk(branch.States);
      if (!state.ItemProcessor) continue;
      const resources = Object.values(state.ItemProcessor.States).map((inner) => inner.Resource ?? '');
      const functionNames = WORKFLOW_STEPS.filter((step) =>
        resources.includes(`\${${step.substitution}}`),
      ).map((step) => step.functionName);
      if (functionNames.length > 0) maps.push({ name, itemsPath: state.ItemsPath ?? '', functionNames });
    }
  };
  walk((JSON.parse(definitionText) as AslStates).States);
  return maps;
}

/**
 * The step functions the tool Maps invoke, one invocation per tool (run-tool for the built-in tools,
 * run-intel for the connector tools).
 */
export function toolStepFunctions(definitionText = readWorkflowDefinitionText()): string[] {
  const invoked = new Set(toolMaps(definitionText).flatMap((map) => map.functionNames));
  return WORKFLOW_STEPS.filter((step) => invoked.has(step.functionName)).map((step) => step.functionName);
}

/**
 * Each tool Map's item count, by its ItemsPath, for a run whose tool steps were invoked this many
 * times (by function name): what the cost model needs to count the transitions of the Maps. A Map
 * whose tasks invoke two steps (the analyst's requests) gets the sum.
 */
export function toolMapItems(
  invocations: Readonly<Record<string, number>>,
  definitionText = readWorkflowDefinitionText(),
): Record<string, number> {
  return Object.fromEntries(
    toolMaps(definitionText).map((map) => [
      map.itemsPath,
      map.functionNames.reduce((sum, name) => sum + (invocations[name] ?? 0), 0),
    ]),
  );
}

/** Placeholder names used in the ASL text, in order of first use. */
export function placeholdersIn(definitionText: string): string[] {
  return [...new Set([...definitionText.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] ?? ''))];
}

/** Replaces every `${Name}` with its value, as Step Functions' definitionSubstitutions do. */
export function substituteDefinition(definitionText: string, values: Record<string, string>): unknown {
  const missing = placeholdersIn(definitionText).filter((name) => values[name] === undefined);
  if (missing.length > 0) throw new Error(`No value for workflow placeholder(s): ${missing.join(', ')}`);
  return JSON.parse(
    definitionText.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => values[name] ?? ''),
  );
}
