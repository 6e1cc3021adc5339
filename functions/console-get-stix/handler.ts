import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { getInvestigationStix } from '../../shared/services/investigations/investigation-reads';
import { sessionContext } from '../../shared/services/sessions/session-context';

/** GET /api/v1/console/sessions/{session_id}/stix: the STIX 2.1 bundle of any completed session of the tenant. */
export const handler = httpHandler(routes.getConsoleStix, async ({ params, caller }) => ({
  statusCode: 200,
  body: await getInvestigationStix(sessionContext(), caller, params.session_id),
  headers: { 'cache-control': 'no-store' },
}));
