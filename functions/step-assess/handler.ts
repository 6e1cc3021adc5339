import { investigationContext } from '../../shared/services/investigation-context';
import { asStep, assess } from '../../shared/services/investigation-steps';

/** Workflow step Assess: records tools that could not run, scores the tool results and builds the report. */
export const handler = (event: unknown) => asStep('step-assess', () => assess(investigationContext(), event));
