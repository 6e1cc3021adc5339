import { analystDeps, analystTurn } from '../../shared/services/analyst-steps';
import { investigationContext } from '../../shared/services/investigation-context';
import { asStep } from '../../shared/services/investigation-steps';

/** Workflow step AnalystTurn (bedrock mode): one Converse turn of the analyst model. */
export const handler = (event: unknown) =>
  asStep('step-analyst-turn', () => {
    const ctx = investigationContext();
    return analystTurn(ctx, analystDeps(ctx), event);
  });
