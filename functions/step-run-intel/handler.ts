import { INTEL_TOOLS } from '../../shared/domain/investigation/tools/tool-intel';
import { intelContext } from '../../shared/services/workflow/intel-context';
import { runTool } from '../../shared/services/workflow/step-run-tool';
import { asStep } from '../../shared/services/workflow/workflow-step';

/**
 * Workflow step RunIntel (one iteration of the RunIntelTools Map over the plan's `intel_tools`, or an
 * `intel_*` lookup the analyst model asked for): runs one threat-intelligence connector tool and
 * records its tool call once. The only function with the connectors, their cache/quota/circuit
 * store and their keys; no offline enrichment data (that is run-tool's).
 */
const STEP = { name: 'step-run-intel', tools: INTEL_TOOLS } as const;

export const handler = (event: unknown) => asStep(STEP.name, () => runTool(intelContext(), event, STEP));
