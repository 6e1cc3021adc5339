import type { Config } from '../../config';
import type { EntityType } from '../../domain/core/entity';
import {
  CONNECTOR_NAMES,
  CONNECTORS,
  type ConnectorName,
  isConnectorName,
} from '../../domain/intel/connectors';
import { intelEnvPrefix, KEYLESS_CONNECTORS } from '../../domain/intel/names';
import type { IntelPort } from '../../domain/investigation/types';

/**
 * Which threat-intelligence connectors this deployment configured, from its configuration alone
 * (no key is read here): the connectors' runtime (intel-lookups.ts) looks up with them, planning a
 * run (mark-active) lists their tools, and the start of a run sends a run that will look one up to
 * the Standard state machine (domain/investigation/workflow-type.ts).
 */

export interface ConnectorSettings {
  name: ConnectorName;
  enabled: boolean;
  baseUrl: string | null;
  dailyQuota: number;
  /** Where the key comes from: the environment, the secret, or nowhere (keyless or not configured). */
  keySource: 'env' | 'secret' | null;
}

type Env = Record<string, unknown>;

export function connectorSettings(cfg: Config): Record<ConnectorName, ConnectorSettings> {
  const env = cfg as unknown as Env;
  const out = {} as Record<ConnectorName, ConnectorSettings>;
  for (const name of CONNECTOR_NAMES) {
    const prefix = intelEnvPrefix(name);
    const declaration = CONNECTORS[name];
    const key = env[`${prefix}_API_KEY`];
    const flagged = env[`${prefix}_ENABLED`] === true;
    const keyless = KEYLESS_CONNECTORS.includes(name);
    const keySource = keyless ? null : key ? 'env' : flagged && cfg.SIS_INTEL_SECRET_ARN ? 'secret' : null;
    const baseUrl = (env[`${prefix}_URL`] as string | undefined) ?? declaration.defaultBaseUrl;
    out[name] = {
      name,
      enabled: (keyless ? flagged : keySource !== null) && baseUrl !== null,
      baseUrl,
      dailyQuota: (env[`${prefix}_DAILY_QUOTA`] as number | undefined) ?? declaration.dailyQuota,
      keySource,
    };
  }
  return out;
}

export function configuredConnectors(cfg: Config): Pick<IntelPort, 'enabled'> {
  const settings = connectorSettings(cfg);
  return { enabled: (connector) => isConnectorName(connector) && settings[connector].enabled };
}

/** The entity types at least one configured connector looks up. */
export function connectorEntityTypes(cfg: Config): Set<EntityType> {
  const settings = connectorSettings(cfg);
  return new Set(
    CONNECTOR_NAMES.filter((name) => settings[name].enabled).flatMap((name) => CONNECTORS[name].entityTypes),
  );
}
