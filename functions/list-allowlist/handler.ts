import { httpHandler } from '../../shared/api/http-handler';
import { listAllowlist } from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/knowledge/tenant-knowledge';

/** GET /api/v1/admin/allowlist: every entry, newest first. */
export const handler = httpHandler(listAllowlist, async () => ({
  statusCode: 200,
  body: await tenantKnowledgeService().listEntries(),
  headers: { 'cache-control': 'no-store' },
}));
