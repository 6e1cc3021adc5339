import { planningContext } from '../../shared/services/workflow/planning-context';
import { markActive } from '../../shared/services/workflow/step-mark-active';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step MarkActive: session initialized → active; returns the entity, persona and the tools to run. */
export const handler = (event: unknown) =>
  asStep('step-mark-active', () => markActive(planningContext(), event));
