import { config } from '../../config';
import { ValidationError } from '../../domain/core/errors';
import { SIEM_FORMATS, type SiemFormat } from '../../domain/siem';
import { logger } from '../../observability';
import { configuredConnectors, createSiemClient } from '../../platform/siem-clients';
import { connectorState, incidentQueue, type PullResult, pullConnector } from './incident-sync';

/**
 * One scheduled SIEM pull (EventBridge Scheduler on AWS, an interval in the local runtime) of the
 * connector named, or of every configured connector when none is. A failing connector does not stop
 * the others; the run fails (and is retried) if any failed.
 */
export async function pullSiemConnectors(named?: unknown): Promise<PullResult[]> {
  const cfg = config();
  const wanted = SIEM_FORMATS.find((format): format is SiemFormat => format === named);
  if (named !== undefined && !wanted)
    throw new ValidationError(`Unknown connector ${JSON.stringify(named)}.`);
  const connectors = configuredConnectors(cfg).filter((c) => !wanted || c.format === wanted);
  const mapping = cfg.SIS_SIEM_SPLUNK_WEB_URL ? { splunk: { webUrl: cfg.SIS_SIEM_SPLUNK_WEB_URL } } : {};
  const results: PullResult[] = [];
  let failures = 0;
  for (const settings of connectors) {
    try {
      const client = await createSiemClient(settings, cfg);
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
}
