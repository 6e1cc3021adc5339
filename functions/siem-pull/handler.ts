import { scheduledHandler } from '../../shared/handlers/scheduled-handler';
import { pullSiemConnectors } from '../../shared/services/incidents/siem-pull';

/** Scheduled SIEM pull: the event names one connector (`{"connector":"splunk"}`), or none for all. */
export const handler = scheduledHandler((event: { connector?: unknown } | undefined) =>
  pullSiemConnectors(event?.connector),
);
