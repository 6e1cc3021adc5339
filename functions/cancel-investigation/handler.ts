import { httpHandler } from '../../shared/api/http-handler';
import { cancelInvestigation } from '../../shared/api/routes/investigations';
import { cancelInvestigation as cancel } from '../../shared/services/investigations/investigations';
import { lifecycleContext } from '../../shared/services/sessions/lifecycle-context';

/** POST /api/v1/public/sessions/{session_id}/cancel: canceled, or 409 when the session already ended. */
export const handler = httpHandler(cancelInvestigation, async ({ params, caller }) => ({
  statusCode: 200,
  body: await cancel(lifecycleContext(), caller, params.session_id),
}));
