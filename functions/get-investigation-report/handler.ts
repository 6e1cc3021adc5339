import { httpHandler } from '../../shared/api/http-handler';
import { compactInvestigationReport } from '../../shared/api/plugin-responses';
import * as routes from '../../shared/api/routes/investigations';
import { getInvestigationReport } from '../../shared/services/investigations/investigation-reads';
import { sessionContext } from '../../shared/services/sessions/session-context';

/** GET /api/v1/sessions/{session_id}: the report (null until completed) of the caller's own session. */
export const handler = httpHandler(routes.getInvestigationReport, async ({ params, caller }) => ({
  statusCode: 200,
  body: compactInvestigationReport(await getInvestigationReport(sessionContext(), caller, params.session_id)),
  headers: { 'cache-control': 'no-store' },
}));
