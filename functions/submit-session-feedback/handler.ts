import { httpHandler } from '../../shared/api/http-handler';
import { submitSessionFeedback } from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/knowledge/tenant-knowledge';

/** POST /api/v1/sessions/{session_id}/feedback: an admin key reviews any completed session. */
export const handler = httpHandler(submitSessionFeedback, async ({ params, body, caller }) => ({
  statusCode: 201,
  body: await tenantKnowledgeService().submitFeedback(caller, params.session_id, body),
}));
