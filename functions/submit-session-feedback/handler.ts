import { httpHandler, twinRouteHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/tenant-knowledge/tenant-knowledge';

/**
 * POST /api/v1/sessions/{session_id}/feedback (admin keys, any session) and its console twin (analysts
 * and admins): 201, 404 for no such session, 409 while it runs.
 */
export const handler = twinRouteHandler(
  ...[routes.submitSessionFeedback, routes.submitConsoleFeedback].map((route) => ({
    route,
    handler: httpHandler(route, async ({ params, body, caller }) => ({
      statusCode: 201,
      body: await tenantKnowledgeService().submitFeedback(caller, params.session_id, body),
    })),
  })),
);
