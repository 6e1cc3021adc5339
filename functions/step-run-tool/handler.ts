import { RUN_TOOL_STEP, runBuiltInTool } from '../../shared/services/workflow/step-run-built-in-tool';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step RunTool: one built-in enrichment tool, its tool call recorded once. */
export const handler = (event: unknown) => asStep(RUN_TOOL_STEP, () => runBuiltInTool(event));
