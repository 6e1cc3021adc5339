import { investigationContext } from '../../shared/services/investigation-context';
import { asStep, runTool } from '../../shared/services/investigation-steps';

/** Workflow step RunTool (one Map iteration): runs one enrichment tool and records its tool call once. */
export const handler = (event: unknown) =>
  asStep('step-run-tool', () => runTool(investigationContext(), event));
