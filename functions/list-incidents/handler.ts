import { httpHandler } from '../../shared/api/http-handler';
import { compactIncidentList } from '../../shared/api/plugin-responses';
import * as routes from '../../shared/api/routes/incidents';
import { config } from '../../shared/config';
import {
  incidentInvestigations,
  incidentStore,
  listIncidents,
} from '../../shared/services/incidents/incidents';

/** GET /api/v1/incidents?severity=&status=&since=&until=&limit=&cursor= */
export const handler = httpHandler(routes.listIncidents, async ({ query }) => ({
  statusCode: 200,
  body: compactIncidentList(
    await listIncidents(
      incidentStore(),
      config().SIS_PUBLIC_URL,
      {
        severity: query.severity,
        status: query.status,
        since: query.since,
        until: query.until,
        limit: query.limit,
        cursor: query.cursor,
      },
      incidentInvestigations(),
    ),
  ),
}));
