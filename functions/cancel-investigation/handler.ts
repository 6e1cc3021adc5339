import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { cancelInvestigation } from '../../shared/services/investigations/investigations';
import { lifecycleContext } from '../../shared/services/sessions/lifecycle-context';

/** POST /api/v1/public/sessions/{session_id}/cancel: canceled, or 409 when the session already ended. */
export const handler = httpHandler(routes.cancelInvestigation, async ({ params, caller }) => ({
  statusCode: 200,
  body: await cancelInvestigation(lifecycleContext(), caller, params.session_id),
}));
