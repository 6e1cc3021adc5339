import type { Context } from 'aws-lambda';
import type { PullResult } from '../../shared/services/incidents/siem-pull';
import { pullSiemConnectors } from '../../shared/services/incidents/siem-pull';

/** Scheduled SIEM pull: the event names one connector (`{"connector":"splunk"}`), or none for all. */
export const handler = (
  event: { connector?: unknown } | undefined,
  _context?: Context,
): Promise<PullResult[]> => pullSiemConnectors(event?.connector);
