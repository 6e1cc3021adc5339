import { asStep, assess } from '../../shared/services/investigation-steps';
import { sessionContext } from '../../shared/services/session-context';

/** Workflow step Assess: records tools that could not run, scores the tool results and builds the report. */
export const handler = (event: unknown) => asStep('step-assess', () => assess(sessionContext(), event));
