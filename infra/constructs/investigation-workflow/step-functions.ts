import { Stack, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { pascalCase } from '../../naming';
import { WORKFLOW_STEPS } from '../../workflow/definition';
import { type AnalystSettings, analystModelStatements } from '../analyst-model-grant';
import { nagPseudo } from '../function-permissions';
import { ServiceFunction, type ServiceFunctionDefaults } from '../service-function';

const ANALYST_STEPS = new Set(['step-mark-active', 'step-analyst-turn', 'step-assess']);
const ANALYST_PROMPTS_FOLDER = 'shared/domain/analyst/prompts';

export interface WorkflowStepFunctions {
  stepFunctions: Map<string, ServiceFunction>;
  /** The definition's `${...}` placeholders: each step's function ARN. */
  substitutions: Record<string, string>;
  intelConnectorSteps: { fn: ServiceFunction; use: 'plan' | 'run' }[];
}

/** One ServiceFunction per WORKFLOW_STEPS entry, in `scope`, with the analyst's settings and grant. */
export function addStepFunctions(
  scope: Construct,
  defaults: ServiceFunctionDefaults,
  analyst: AnalystSettings | undefined,
): WorkflowStepFunctions {
  const result: WorkflowStepFunctions = {
    stepFunctions: new Map(),
    substitutions: {},
    intelConnectorSteps: [],
  };
  for (const step of WORKFLOW_STEPS) {
    const fn = new ServiceFunction(scope, pascalCase(step.functionName), {
      defaults,
      name: step.functionName,
      timeoutSeconds: step.timeoutSeconds,
      // The enrichment tools read the offline IP and mail data; no other step carries it.
      offlineData: step.offlineData === true,
      // The analyst mode decides the plan (MarkActive), the turns and the report's analyst section.
      ...(analyst && ANALYST_STEPS.has(step.functionName) ? { environment: analyst.environment } : {}),
      // The analyst's versioned prompt files, read at run time beside the bundle.
      ...(step.functionName === 'step-analyst-turn' ? { assetFolders: [ANALYST_PROMPTS_FOLDER] } : {}),
    });
    if (analyst && step.functionName === 'step-analyst-turn') grantAnalystModel(scope, fn, analyst);
    result.stepFunctions.set(step.functionName, fn);
    result.substitutions[step.substitution] = fn.function.functionArn;
    if (step.intelConnectors) result.intelConnectorSteps.push({ fn, use: step.intelConnectors });
  }
  if (result.intelConnectorSteps.filter((step) => step.use === 'run').length !== 1) {
    throw new Error('Exactly one workflow step must run the intel connectors.');
  }
  return result;
}

function grantAnalystModel(scope: Construct, fn: ServiceFunction, analyst: AnalystSettings): void {
  const grant = analystModelStatements(scope, analyst);
  for (const statement of grant.statements) fn.role.addToPolicy(statement);
  if (grant.profileModel) {
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:${nagPseudo(Stack.of(fn).partition, 'Partition')}:bedrock:*::foundation-model/${grant.profileModel}]`,
      reason:
        'A cross-region inference profile routes to its model in any of its destination regions; the grant names that one model and is usable only through the configured profile (condition bedrock:InferenceProfileArn).',
    });
  }
}
