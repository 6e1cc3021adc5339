import type { Config } from '../../config';
import type { EntityType } from '../../domain/core/entity';
import {
  CONNECTOR_ENTITY_TYPES,
  CONNECTOR_NAMES,
  type ConnectorName,
  intelEnvPrefix,
  KEYLESS_CONNECTORS,
} from '../../domain/intel/names';

/**
 * Which connectors the deployment turned on, from its configuration and the connectors' names
 * alone: no declaration (request builders, base URLs) is imported here, so the start functions,
 * which only need to know whether a run will look a connector up, stay small. The full settings
 * are connector-settings.ts.
 */

type Env = Record<string, unknown>;

/** Where a connector's key comes from, and whether the deployment turned it on at all. */
export function keyOf(
  cfg: Config,
  name: ConnectorName,
): { keySource: 'env' | 'secret' | null; configured: boolean } {
  const env = cfg as unknown as Env;
  const prefix = intelEnvPrefix(name);
  const flagged = env[`${prefix}_ENABLED`] === true;
  if (KEYLESS_CONNECTORS.includes(name)) return { keySource: null, configured: flagged };
  const keySource = env[`${prefix}_API_KEY`] ? 'env' : flagged && cfg.SIS_INTEL_SECRET_ARN ? 'secret' : null;
  return { keySource, configured: keySource !== null };
}

/**
 * The entity types at least one configured connector looks up, from the names' table alone (the
 * start function carries no connector declarations). A connector with a key but no base URL counts
 * too: the configuration refuses that (MISP without its URL), and counting it errs towards Standard.
 */
export function connectorEntityTypes(cfg: Config): Set<EntityType> {
  return new Set(
    CONNECTOR_NAMES.filter((name) => keyOf(cfg, name).configured).flatMap(
      (name) => CONNECTOR_ENTITY_TYPES[name],
    ),
  );
}
