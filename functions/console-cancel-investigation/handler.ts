import { httpHandler } from '../../shared/api/http-handler';
import { cancelConsoleInvestigation } from '../../shared/api/routes/console';
import { investigationContext } from '../../shared/services/investigation-context';
import { cancelInvestigation } from '../../shared/services/investigations';

/** POST /api/v1/console/sessions/{session_id}/cancel: any running session of the tenant; 409 once ended. */
export const handler = httpHandler(cancelConsoleInvestigation, async ({ params, caller }) => ({
  statusCode: 200,
  body: await cancelInvestigation(investigationContext(), caller, params.session_id),
}));
