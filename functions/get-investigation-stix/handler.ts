import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { getInvestigationStix } from '../../shared/services/investigations/investigation-reads';
import { sessionContext } from '../../shared/services/sessions/session-context';

/** GET /api/v1/sessions/{session_id}/stix: the caller's own completed report as a STIX 2.1 bundle. */
export const handler = httpHandler(routes.getInvestigationStix, async ({ params, caller }) => ({
  statusCode: 200,
  body: await getInvestigationStix(sessionContext(), caller, params.session_id),
  headers: { 'cache-control': 'no-store' },
}));
