import { httpHandler } from '../../shared/api/http-handler';
import { submitConsoleFeedback } from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/knowledge/tenant-knowledge';

/** POST /api/v1/console/sessions/{session_id}/feedback: a console analyst reviews any completed session. */
export const handler = httpHandler(submitConsoleFeedback, async ({ params, body, caller }) => ({
  statusCode: 201,
  body: await tenantKnowledgeService().submitFeedback(caller, params.session_id, body),
}));
