import { investigationContext } from '../../shared/services/investigation-context';
import { asStep, persist } from '../../shared/services/investigation-steps';

/** Workflow step Persist: graph edges, verdict index and search index, then the report and active → completed. */
export const handler = (event: unknown) =>
  asStep('step-persist', () => persist(investigationContext(), event));
