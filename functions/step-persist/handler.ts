import { asStep, persist } from '../../shared/services/investigation-steps';
import { stepContext } from '../../shared/services/step-context';

/** Workflow step Persist: graph edges, verdict index and search index, then the report and active → completed. */
export const handler = (event: unknown) => asStep('step-persist', () => persist(stepContext(), event));
