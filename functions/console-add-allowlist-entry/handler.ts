import { httpHandler } from '../../shared/api/http-handler';
import { addConsoleAllowlistEntry } from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/knowledge/tenant-knowledge';

/** POST /api/v1/console/admin/allowlist: the same as the API route, as the signed-in admin. */
export const handler = httpHandler(addConsoleAllowlistEntry, async ({ body, caller }) => ({
  statusCode: 201,
  body: await tenantKnowledgeService().addEntry(caller, body),
}));
