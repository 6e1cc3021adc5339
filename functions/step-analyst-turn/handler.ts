import { analystTurnContext } from '../../shared/services/analyst/analysis-context';
import { analystDeps, analystTurn } from '../../shared/services/workflow/analyst-steps';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step AnalystTurn (bedrock mode): one Converse turn of the analyst model. */
export const handler = (event: unknown) =>
  asStep('step-analyst-turn', () => analystTurn(analystTurnContext(), analystDeps(), event));
