import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/investigations';
import { cancelInvestigation } from '../../shared/services/investigations/investigations';
import { lifecycleContext } from '../../shared/services/sessions/lifecycle-context';

/** POST /api/v1/console/sessions/{session_id}/cancel: any running session of the tenant; 409 once ended. */
export const handler = httpHandler(routes.cancelConsoleInvestigation, async ({ params, caller }) => ({
  statusCode: 200,
  body: await cancelInvestigation(lifecycleContext(), caller, params.session_id),
}));
