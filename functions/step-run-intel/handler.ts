import { RUN_INTEL_STEP, runIntelTool } from '../../shared/services/workflow/step-run-intel';
import { asStep } from '../../shared/services/workflow/workflow-step';

/** Workflow step RunIntel: one threat-intelligence connector tool, its tool call recorded once. */
export const handler = (event: unknown) => asStep(RUN_INTEL_STEP, () => runIntelTool(event));
