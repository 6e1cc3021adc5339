import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/incidents';
import { config } from '../../shared/config';
import {
  incidentInvestigations,
  incidentStore,
  listIncidents,
} from '../../shared/services/incidents/incidents';

/** GET /api/v1/console/incidents?severity=&status=&since=&until=&limit=&cursor= */
export const handler = httpHandler(routes.listConsoleIncidents, async ({ query }) => ({
  statusCode: 200,
  body: await listIncidents(incidentStore(), config().SIS_PUBLIC_URL, query, incidentInvestigations()),
  headers: { 'cache-control': 'no-store' },
}));
