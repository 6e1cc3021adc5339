import { onExecutionStatusChange } from '../../shared/services/workflow/ended-runs';
import { stepContext } from '../../shared/services/workflow/step-context';
import { asStep } from '../../shared/services/workflow/workflow-step';

/**
 * EventBridge target for "Step Functions Execution Status Change" events of the investigation state
 * machine (FAILED, TIMED_OUT, ABORTED): ends the session failed or canceled unless it already ended,
 * so no session stays active after its run. An error makes EventBridge/Lambda retry the delivery.
 */
export const handler = (event: unknown) =>
  asStep('workflow-status-change', () => onExecutionStatusChange(stepContext(), event));
