import { httpHandler } from '../../shared/api/http-handler';
import { listConsoleAllowlist } from '../../shared/api/routes/tenant-knowledge';
import { tenantKnowledgeService } from '../../shared/services/knowledge/tenant-knowledge';

/** GET /api/v1/console/admin/allowlist: every entry, newest first. */
export const handler = httpHandler(listConsoleAllowlist, async () => ({
  statusCode: 200,
  body: await tenantKnowledgeService().listEntries(),
  headers: { 'cache-control': 'no-store' },
}));
