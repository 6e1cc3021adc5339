import { asStep, markFailed } from '../../shared/services/investigation-steps';
import { stepContext } from '../../shared/services/step-context';

/** Workflow step MarkFailed: ends the session failed (unless it already ended) with a reason safe to show. */
export const handler = (event: unknown) => asStep('step-mark-failed', () => markFailed(stepContext(), event));
