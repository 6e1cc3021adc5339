import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { getInvestigationReport } from '../../shared/services/investigations/investigation-reads';
import { sessionContext } from '../../shared/services/sessions/session-context';

/** GET /api/v1/console/sessions/{session_id}/report: the report of any session of the tenant. */
export const handler = httpHandler(routes.getConsoleReport, async ({ params, caller }) => ({
  statusCode: 200,
  body: await getInvestigationReport(sessionContext(), caller, params.session_id),
  headers: { 'cache-control': 'no-store' },
}));
