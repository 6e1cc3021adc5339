import { config } from '../../config';
import type { OfflineIntel } from '../../domain/core/vocabulary';
import { BUILT_IN_TOOLS } from '../../domain/investigation/tools/built-in-tools';
import { logger } from '../../observability';
import { offlineIntel } from '../../platform/offline-intel';
import { toolFeeds } from '../feeds/tool-feeds';
import { investigationContext } from './investigation-context';
import { runTool } from './step-run-tool';

/**
 * Workflow step RunTool (one iteration of the RunBuiltInTools Map over the plan's `tools`, or a
 * built-in lookup the analyst model asked for): runs one built-in enrichment tool and records its
 * tool call once. The only step that carries the offline enrichment data: it is opened here (meta
 * only) and each data set is read on its first lookup, once per cold start. It also reads the
 * public feeds' compiled sets (the `feeds` tool) from the tenant's own store, once per container.
 * The intelligence connectors run in step-run-intel.
 */
export const RUN_TOOL_STEP = 'step-run-tool';

function offline(): OfflineIntel | undefined {
  try {
    return offlineIntel(config().SIS_OFFLINE_DATA_DIR);
  } catch (error) {
    // Missing data degrades the enrichment, never the investigation.
    logger.warn('offline enrichment data unavailable', { error: error as Error });
    return undefined;
  }
}

export function runBuiltInTool(event: unknown) {
  return runTool(investigationContext(), event, {
    name: RUN_TOOL_STEP,
    tools: BUILT_IN_TOOLS,
    offline: offline(),
    feeds: toolFeeds(),
  });
}
