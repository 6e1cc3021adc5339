import { assessContext } from '../../shared/services/analysis-context';
import { assess } from '../../shared/services/step-assess';
import { asStep } from '../../shared/services/workflow-step';

/** Workflow step Assess: records tools that could not run, scores the tool results and builds the report. */
export const handler = (event: unknown) => asStep('step-assess', () => assess(assessContext(), event));
