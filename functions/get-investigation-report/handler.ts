import { httpHandler } from '../../shared/api/http-handler';
import { compactInvestigationReport } from '../../shared/api/plugin-responses';
import { getInvestigationReport } from '../../shared/api/routes/investigations';
import { getInvestigationReport as report } from '../../shared/services/investigations/investigation-reads';
import { sessionContext } from '../../shared/services/sessions/session-context';

/** GET /api/v1/sessions/{session_id}: the report (null until completed) of the caller's own session. */
export const handler = httpHandler(getInvestigationReport, async ({ params, caller }) => ({
  statusCode: 200,
  body: compactInvestigationReport(await report(sessionContext(), caller, params.session_id)),
  headers: { 'cache-control': 'no-store' },
}));
