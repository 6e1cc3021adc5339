import { planningContext } from '../../shared/services/investigation-context';
import { asStep, markActive } from '../../shared/services/investigation-steps';

/** Workflow step MarkActive: session initialized → active; returns the entity, persona and the tools to run. */
export const handler = (event: unknown) =>
  asStep('step-mark-active', () => markActive(planningContext(), event));
