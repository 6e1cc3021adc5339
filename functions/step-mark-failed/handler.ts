import { markFailed } from '../../shared/services/ended-runs';
import { stepContext } from '../../shared/services/step-context';
import { asStep } from '../../shared/services/workflow-step';

/** Workflow step MarkFailed: ends the session failed (unless it already ended) with a reason safe to show. */
export const handler = (event: unknown) => asStep('step-mark-failed', () => markFailed(stepContext(), event));
