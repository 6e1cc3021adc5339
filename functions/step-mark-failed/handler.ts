import { markFailed } from '../../shared/services/workflow/ended-runs';
import { stepContext } from '../../shared/services/workflow/step-context';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step MarkFailed: ends the session failed (unless it already ended) with a reason safe to show. */
export const handler = (event: unknown) => asStep('step-mark-failed', () => markFailed(stepContext(), event));
