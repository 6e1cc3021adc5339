import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/incidents';
import { config } from '../../shared/config';
import { getIncident } from '../../shared/services/console/console';
import { incidentInvestigations, incidentStore } from '../../shared/services/incidents/incidents';

/** GET /api/v1/console/incidents/{incident_id}: one incident in full (404 unknown). */
export const handler = httpHandler(routes.getConsoleIncident, async ({ params }) => ({
  statusCode: 200,
  body: await getIncident(
    incidentStore(),
    config().SIS_PUBLIC_URL,
    params.incident_id,
    incidentInvestigations(),
  ),
  headers: { 'cache-control': 'no-store' },
}));
