import { assessContext } from '../../shared/services/analyst/analysis-context';
import { assess } from '../../shared/services/workflow/step-assess';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step Assess: records tools that could not run, scores the tool results and builds the report. */
export const handler = (event: unknown) => asStep('step-assess', () => assess(assessContext(), event));
