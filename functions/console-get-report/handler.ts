import { httpHandler } from '../../shared/api/http-handler';
import { getConsoleReport } from '../../shared/api/routes/console';
import { investigationContext } from '../../shared/services/investigation-context';
import { getInvestigationReport } from '../../shared/services/investigations';

/** GET /api/v1/console/sessions/{session_id}/report: the report of any session of the tenant. */
export const handler = httpHandler(getConsoleReport, async ({ params, caller }) => ({
  statusCode: 200,
  body: await getInvestigationReport(investigationContext(), caller, params.session_id),
  headers: { 'cache-control': 'no-store' },
}));
