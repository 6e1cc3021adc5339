import { httpHandler } from '../../shared/api/http-handler';
import { ingestIncidents } from '../../shared/api/routes/knowledge';
import { config } from '../../shared/config';
import { incidentQueue, ingestIncidents as ingest } from '../../shared/services/incidents/incident-ingest';

/** POST /api/v1/incidents/ingest: valid records are queued (202); invalid ones are listed by index. */
export const handler = httpHandler(ingestIncidents, async ({ body }) => {
  const webUrl = config().SIS_SIEM_SPLUNK_WEB_URL;
  return {
    statusCode: 202,
    body: await ingest(incidentQueue(), body, webUrl ? { splunk: { webUrl } } : {}),
  };
});
