import { investigationContext } from '../../shared/services/investigation-context';
import { asStep, markFailed } from '../../shared/services/investigation-steps';

/** Workflow step MarkFailed: ends the session failed (unless it already ended) with a reason safe to show. */
export const handler = (event: unknown) =>
  asStep('step-mark-failed', () => markFailed(investigationContext(), event));
