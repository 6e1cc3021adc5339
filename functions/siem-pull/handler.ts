import type { Context } from 'aws-lambda';
import { config } from '../../shared/config';
import { SIEM_FORMATS, type SiemFormat } from '../../shared/domain/siem';
import { logger } from '../../shared/observability';
import { configuredConnectors, createSiemClient } from '../../shared/platform/siem-clients';
import {
  connectorState,
  incidentQueue,
  type PullResult,
  pullConnector,
} from '../../shared/services/incidents/incident-sync';

/**
 * Scheduled SIEM pull (EventBridge Scheduler on AWS, an interval in the local runtime). The event
 * names one connector (`{"connector":"splunk"}`); without one, every configured connector runs.
 * A failing connector does not stop the others; the run fails (and is retried) if any failed.
 */
export const handler = async (
  event: { connector?: unknown } | undefined,
  _context?: Context,
): Promise<PullResult[]> => {
  const cfg = config();
  const named = event?.connector;
  const wanted = SIEM_FORMATS.find((format): format is SiemFormat => format === named);
  if (named !== undefined && !wanted) throw new Error(`Unknown connector ${JSON.stringify(named)}.`);
  const connectors = configuredConnectors(cfg).filter((c) => !wanted || c.format === wanted);
  const results: PullResult[] = [];
  let failures = 0;
  for (const settings of connectors) {
    try {
      const client = await createSiemClient(settings, cfg);
      const mapping = cfg.SIS_SIEM_SPLUNK_WEB_URL ? { splunk: { webUrl: cfg.SIS_SIEM_SPLUNK_WEB_URL } } : {};
      const result = await pullConnector({
        client,
        state: connectorState(),
        queue: incidentQueue(),
        mapping,
      });
      logger.info('SIEM pull finished', { ...result });
      results.push(result);
    } catch (error) {
      failures++;
      logger.error('SIEM pull failed', { connector: settings.format, error: error as Error });
    }
  }
  if (failures > 0) throw new Error(`${failures} SIEM connector run(s) failed.`);
  return results;
};
