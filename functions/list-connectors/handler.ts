import { httpHandler } from '../../shared/api/http-handler';
import { listConnectors } from '../../shared/api/routes/connectors';
import { type Config, config } from '../../shared/config';
import { listConnectors as list } from '../../shared/services/intel/intel-lookups';
import { type IntelRepository, intelRepositoryFromConfig } from '../../shared/store/intel-repository';

let shared: { cfg: Config; repo: IntelRepository } | undefined;

/** GET /api/v1/admin/connectors: each intelligence connector's settings and today's state, never a key. */
export const handler = httpHandler(listConnectors, async () => {
  const cfg = config();
  if (shared?.cfg !== cfg) shared = { cfg, repo: intelRepositoryFromConfig(cfg) };
  return {
    statusCode: 200,
    body: { connectors: await list(cfg, shared.repo) },
    headers: { 'cache-control': 'no-store' },
  };
});
