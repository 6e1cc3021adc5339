import { httpHandler } from '../../shared/api/http-handler';
import { addAllowlistEntry } from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/knowledge/tenant-knowledge';

/** POST /api/v1/admin/allowlist: 201 with the entry; 409 when the same type and value is listed. */
export const handler = httpHandler(addAllowlistEntry, async ({ body, caller }) => ({
  statusCode: 201,
  body: await tenantKnowledgeService().addEntry(caller, body),
}));
