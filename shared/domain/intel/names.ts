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
