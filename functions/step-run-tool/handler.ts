import { config } from '../../shared/config';
import { BUILT_IN_TOOLS } from '../../shared/domain/investigation/tools/built-in-tools';
import type { OfflineIntel } from '../../shared/domain/investigation/tools/enrichment';
import { logger } from '../../shared/observability';
import { offlineIntel } from '../../shared/platform/offline-intel';
import { toolFeeds } from '../../shared/services/feeds/feeds';
import { investigationContext } from '../../shared/services/workflow/investigation-context';
import { runTool } from '../../shared/services/workflow/step-run-tool';
import { asStep } from '../../shared/services/workflow/workflow-step';

/**
 * Workflow step RunTool (one iteration of the RunBuiltInTools Map over the plan's `tools`, or a
 * built-in lookup the analyst model asked for): runs one built-in enrichment tool and records its
 * tool call once. The only function that carries the offline
 * enrichment data: it is opened here (meta only) and each data set is read on its first lookup, once
 * per cold start. It also reads the public feeds' compiled sets (the `feeds` tool), from the tenant's
 * own store, once per container. The intelligence connectors run in step-run-intel.
 */
function offline(): OfflineIntel | undefined {
  try {
    return offlineIntel(config().SIS_OFFLINE_DATA_DIR);
  } catch (error) {
    // Missing data degrades the enrichment, never the investigation.
    logger.warn('offline enrichment data unavailable', { error: error as Error });
    return undefined;
  }
}

export const handler = (event: unknown) =>
  asStep('step-run-tool', () =>
    runTool(investigationContext(), event, {
      name: 'step-run-tool',
      tools: BUILT_IN_TOOLS,
      offline: offline(),
      feeds: toolFeeds(),
    }),
  );
