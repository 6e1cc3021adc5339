import type { EntityType } from '../core/entity';

/** The threat-intelligence connectors' names (declarations in connectors.ts); config reads this list. */
export const CONNECTOR_NAMES = [
  'abuseipdb',
  'greynoise',
  'internetdb',
  'urlhaus',
  'threatfox',
  'otx',
  'crowdsec',
  'virustotal',
  'misp',
] as const;
export type ConnectorName = (typeof CONNECTOR_NAMES)[number];

/** Sources that need no key: enabled with SIS_INTEL_<NAME>_ENABLED=true. */
export const KEYLESS_CONNECTORS: readonly ConnectorName[] = ['internetdb'];

/** The environment variable prefix of a connector: `SIS_INTEL_ABUSEIPDB`. */
export const intelEnvPrefix = (name: ConnectorName) => `SIS_INTEL_${name.toUpperCase()}` as const;

/**
 * What each connector looks up (its declaration's `entityTypes`, connectors.ts). Kept here, beside
 * the names, so starting a run can tell whether it will look a connector up (a Standard run,
 * domain/investigation/workflow-type.ts) without carrying the connectors' request builders.
 */
export const CONNECTOR_ENTITY_TYPES: Readonly<Record<ConnectorName, readonly EntityType[]>> = {
  abuseipdb: ['ip'],
  greynoise: ['ip'],
  internetdb: ['ip'],
  urlhaus: ['ip', 'domain'],
  threatfox: ['ip', 'domain'],
  otx: ['ip', 'domain'],
  crowdsec: ['ip'],
  virustotal: ['ip', 'domain'],
  misp: ['ip', 'domain', 'host', 'user'],
};

/**
 * How an operator turns a connector on, locally and on AWS (docs/intel.md#configuration): shown by
 * Admin > Connectors, `sis connectors list` and a report's coverage.
 */
export function howToEnableConnector(name: ConnectorName): string {
  const prefix = intelEnvPrefix(name);
  if (KEYLESS_CONNECTORS.includes(name)) {
    return `No key needed: set ${prefix}_ENABLED=true locally, or -c intelConnectors=${name} on AWS; check the source's terms first.`;
  }
  const url = name === 'misp' ? ` and SIS_INTEL_MISP_URL (-c intelMispUrl=)` : '';
  return `Needs a key: set ${prefix}_API_KEY${url} locally; on AWS put it as "${name.toUpperCase()}" in the intelSecretArn secret and add ${name} to -c intelConnectors.`;
}
