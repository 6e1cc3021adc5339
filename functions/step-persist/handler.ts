import { stepContext } from '../../shared/services/workflow/step-context';
import { persist } from '../../shared/services/workflow/step-persist';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step Persist: graph edges, verdict index and search index, then the report and active → completed. */
export const handler = (event: unknown) => asStep('step-persist', () => persist(stepContext(), event));
