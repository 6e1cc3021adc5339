import { perConfiguration } from '../../config';
import { intelRepositoryFromConfig } from '../../store/intel-repository';
import { type ConnectorView, listConnectors } from './intel-lookups';

/** The connectors' store of this process (one per cold start; rebuilt when tests reset the config). */
const connectorsContext = /* @__PURE__ */ perConfiguration((cfg) => ({
  cfg,
  repo: intelRepositoryFromConfig(cfg),
}));

/** Admin > Connectors: each intelligence connector's settings and today's state, never a key. */
export function connectorsOverview(now = new Date()): Promise<ConnectorView[]> {
  const { cfg, repo } = connectorsContext();
  return listConnectors(cfg, repo, now);
}
