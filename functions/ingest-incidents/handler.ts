import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/incidents';
import { config } from '../../shared/config';
import {
  incidentQueue,
  ingestIncidents,
  pulledSources,
} from '../../shared/services/incidents/incident-ingest';

/** POST /api/v1/incidents/ingest: valid records are queued (202); invalid ones are listed by index. */
export const handler = httpHandler(routes.ingestIncidents, async ({ body, caller }) => {
  const cfg = config();
  const webUrl = cfg.SIS_SIEM_SPLUNK_WEB_URL;
  return {
    statusCode: 202,
    body: await ingestIncidents(incidentQueue(), body, webUrl ? { splunk: { webUrl } } : {}, {
      keyId: caller.keyId,
      pulledSources: pulledSources(cfg),
      now: new Date(),
    }),
  };
});
