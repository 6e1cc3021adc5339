import { analystDeps, analystTurn } from '../../shared/services/analyst/analyst-steps';
import { sessionContext } from '../../shared/services/investigations/session-context';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step AnalystTurn (bedrock mode): one Converse turn of the analyst model. */
export const handler = (event: unknown) =>
  asStep('step-analyst-turn', () => {
    const ctx = sessionContext();
    return analystTurn(ctx, analystDeps(ctx), event);
  });
