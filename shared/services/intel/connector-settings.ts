import type { Config } from '../../config';
import type { IntelPort } from '../../domain/core/vocabulary';
import {
  CONNECTOR_NAMES,
  CONNECTORS,
  type ConnectorName,
  isConnectorName,
} from '../../domain/intel/connectors';
import { intelEnvPrefix } from '../../domain/intel/names';
import { keyOf } from './configured-connectors';

/**
 * Which threat-intelligence connectors this deployment configured, from its configuration alone
 * (no key is read here): the connectors' runtime (intel-lookups.ts) looks up with them and planning a
 * run (mark-active) lists their tools. Whether one is turned on at all is configured-connectors.ts,
 * which the start functions use without these declarations.
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
    const { keySource, configured } = keyOf(cfg, name);
    const baseUrl = (env[`${prefix}_URL`] as string | undefined) ?? declaration.defaultBaseUrl;
    out[name] = {
      name,
      enabled: configured && baseUrl !== null,
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
