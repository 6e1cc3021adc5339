import { analystTurnContext } from '../../shared/services/analysis-context';
import { analystDeps, analystTurn } from '../../shared/services/analyst-steps';
import { asStep } from '../../shared/services/workflow-step';

/** Workflow step AnalystTurn (bedrock mode): one Converse turn of the analyst model. */
export const handler = (event: unknown) =>
  asStep('step-analyst-turn', () => {
    const ctx = analystTurnContext();
    return analystTurn(ctx, analystDeps(ctx), event);
  });
