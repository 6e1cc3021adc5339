import { INTEL_TOOLS } from '../../domain/investigation/tools/tool-intel';
import { intelContext } from './intel-context';
import { runTool } from './step-run-tool';

/**
 * Workflow step RunIntel (one iteration of the RunIntelTools Map over the plan's `intel_tools`, or an
 * `intel_*` lookup the analyst model asked for): runs one threat-intelligence connector tool and
 * records its tool call once. The only step with the connectors, their cache/quota/circuit store and
 * their keys; no offline enrichment data (that is run-tool's).
 */
export const RUN_INTEL_STEP = 'step-run-intel';

export function runIntelTool(event: unknown) {
  return runTool(intelContext(), event, { name: RUN_INTEL_STEP, tools: INTEL_TOOLS });
}
