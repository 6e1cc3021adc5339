import type { Entity, EntityType } from '../core/entity';
import type { Tlp } from '../core/tlp';

/**
 * The threat-intelligence connectors: one declaration each (what it looks up, how it
 * authenticates, how far it may be trusted with data, how long its answers are reused, its daily
 * budget) plus the provider request for an entity. The mapper from each provider's answer to
 * findings is mappers.ts (MAPPERS, by connector name) and the gate that refuses an entity a source
 * must not see is the connector's tool (investigation/tool-intel.ts): planning a run and offering
 * tools to the analyst read these declarations without either. The HTTP call itself is
 * shared/platform/intel-http.ts; the cache, quota and circuit breaker are
 * shared/services/intel/intel-lookups.ts. docs/intel.md documents each source.
 */

import { CONNECTOR_ENTITY_TYPES, CONNECTOR_NAMES, type ConnectorName } from './names';

export { CONNECTOR_NAMES, type ConnectorName };

export type IntelToolName = `intel_${ConnectorName}`;
export const intelToolName = (name: ConnectorName): IntelToolName => `intel_${name}`;

/** An HTTP request to a provider, relative to its base URL; the key header is added by the client. */
export interface ProviderRequest {
  method: 'GET' | 'POST';
  /** Path (already URL-encoded) appended to the base URL. */
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** What a provider answered: a 2xx, or a status the declaration names as a documented "not found". */
export interface ProviderAnswer {
  status: number;
  body: unknown;
}

export interface ConnectorDeclaration {
  name: ConnectorName;
  /** Provider and product, as analysts know it. */
  title: string;
  entityTypes: readonly EntityType[];
  /** The header carrying the key; null for a keyless source. */
  keyHeader: string | null;
  /** Highest TLP the source may receive: third-party services amber, the tenant's own MISP red. */
  maxTlp: Tlp;
  /** Operated by the tenant itself: internal names may be looked up there. */
  tenantOwned: boolean;
  cacheTtlSeconds: number;
  /** Lookups per UTC day, unless the deployment sets SIS_INTEL_<NAME>_DAILY_QUOTA. */
  dailyQuota: number;
  /** Least time between two lookups (pacing), so a burst spreads out instead of tripping the provider. */
  minIntervalMs: number;
  /** null when there is no public service (MISP: the URL is required). */
  defaultBaseUrl: string | null;
  /** Statuses besides 2xx that are answers ("not found"), not errors. */
  answerStatuses: readonly number[];
  request(entity: Entity): ProviderRequest;
}

const HOUR = 3600;
const enc = encodeURIComponent;
const ipPath = (entity: Entity) => (entity.value.includes(':') ? 'IPv6' : 'IPv4');
const JSON_ACCEPT = { accept: 'application/json' };

export const CONNECTORS: Readonly<Record<ConnectorName, ConnectorDeclaration>> = {
  abuseipdb: {
    name: 'abuseipdb',
    title: 'AbuseIPDB v2',
    entityTypes: CONNECTOR_ENTITY_TYPES.abuseipdb,
    keyHeader: 'Key',
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 24 * HOUR,
    dailyQuota: 1000,
    minIntervalMs: 0,
    defaultBaseUrl: 'https://api.abuseipdb.com/api/v2',
    answerStatuses: [],
    request: (entity) => ({
      method: 'GET',
      path: '/check',
      query: { ipAddress: entity.value, maxAgeInDays: '90', verbose: '' },
      headers: JSON_ACCEPT,
    }),
  },
  greynoise: {
    name: 'greynoise',
    title: 'GreyNoise Community',
    entityTypes: CONNECTOR_ENTITY_TYPES.greynoise,
    keyHeader: 'key',
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 24 * HOUR,
    dailyQuota: 50,
    minIntervalMs: 0,
    defaultBaseUrl: 'https://api.greynoise.io',
    answerStatuses: [404],
    request: (entity) => ({
      method: 'GET',
      path: `/v3/community/${enc(entity.value)}`,
      headers: JSON_ACCEPT,
    }),
  },
  internetdb: {
    name: 'internetdb',
    title: 'Shodan InternetDB',
    entityTypes: CONNECTOR_ENTITY_TYPES.internetdb,
    keyHeader: null,
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 24 * HOUR,
    dailyQuota: 10_000,
    minIntervalMs: 0,
    defaultBaseUrl: 'https://internetdb.shodan.io',
    answerStatuses: [404],
    request: (entity) => ({ method: 'GET', path: `/${enc(entity.value)}`, headers: JSON_ACCEPT }),
  },
  urlhaus: {
    name: 'urlhaus',
    title: 'abuse.ch URLhaus',
    entityTypes: CONNECTOR_ENTITY_TYPES.urlhaus,
    keyHeader: 'Auth-Key',
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 6 * HOUR,
    dailyQuota: 5_000,
    minIntervalMs: 0,
    defaultBaseUrl: 'https://urlhaus-api.abuse.ch',
    answerStatuses: [],
    request: (entity) => ({ method: 'POST', path: '/v1/host/', form: { host: entity.value } }),
  },
  threatfox: {
    name: 'threatfox',
    title: 'abuse.ch ThreatFox',
    entityTypes: CONNECTOR_ENTITY_TYPES.threatfox,
    keyHeader: 'Auth-Key',
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 6 * HOUR,
    dailyQuota: 5_000,
    minIntervalMs: 0,
    defaultBaseUrl: 'https://threatfox-api.abuse.ch',
    answerStatuses: [],
    request: (entity) => ({
      method: 'POST',
      path: '/api/v1/',
      // The documented search: a substring match, narrowed to this indicator by the mapper.
      json: { query: 'search_ioc', search_term: entity.value },
    }),
  },
  otx: {
    name: 'otx',
    title: 'AlienVault OTX',
    entityTypes: CONNECTOR_ENTITY_TYPES.otx,
    keyHeader: 'X-OTX-API-KEY',
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 12 * HOUR,
    dailyQuota: 10_000,
    minIntervalMs: 0,
    defaultBaseUrl: 'https://otx.alienvault.com',
    answerStatuses: [404],
    request: (entity) => ({
      method: 'GET',
      path: `/api/v1/indicators/${entity.type === 'ip' ? ipPath(entity) : 'domain'}/${enc(entity.value)}/general`,
      headers: JSON_ACCEPT,
    }),
  },
  crowdsec: {
    name: 'crowdsec',
    title: 'CrowdSec CTI',
    entityTypes: CONNECTOR_ENTITY_TYPES.crowdsec,
    keyHeader: 'x-api-key',
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 24 * HOUR,
    // The free community key's quota (50 lookups a day); an extended key raises it by setting.
    dailyQuota: 50,
    minIntervalMs: 0,
    defaultBaseUrl: 'https://cti.api.crowdsec.net',
    answerStatuses: [404],
    request: (entity) => ({ method: 'GET', path: `/v2/smoke/${enc(entity.value)}`, headers: JSON_ACCEPT }),
  },
  virustotal: {
    name: 'virustotal',
    title: 'VirusTotal v3',
    entityTypes: CONNECTOR_ENTITY_TYPES.virustotal,
    keyHeader: 'x-apikey',
    maxTlp: 'amber',
    tenantOwned: false,
    cacheTtlSeconds: 24 * HOUR,
    // The public API's limits (4 lookups a minute, 500 a day); a premium key raises them by setting.
    dailyQuota: 500,
    minIntervalMs: 15_000,
    defaultBaseUrl: 'https://www.virustotal.com/api/v3',
    answerStatuses: [404],
    request: (entity) => ({
      method: 'GET',
      path: `/${entity.type === 'ip' ? 'ip_addresses' : 'domains'}/${enc(entity.value)}`,
      headers: JSON_ACCEPT,
    }),
  },
  misp: {
    name: 'misp',
    title: "MISP (the tenant's own)",
    entityTypes: CONNECTOR_ENTITY_TYPES.misp,
    keyHeader: 'Authorization',
    maxTlp: 'red',
    tenantOwned: true,
    cacheTtlSeconds: HOUR,
    dailyQuota: 100_000,
    minIntervalMs: 0,
    defaultBaseUrl: null,
    answerStatuses: [],
    request: (entity) => ({
      method: 'POST',
      path: '/attributes/restSearch',
      json: { returnFormat: 'json', value: entity.value, includeEventTags: true, limit: 50 },
      headers: JSON_ACCEPT,
    }),
  },
};

export function isConnectorName(value: string): value is ConnectorName {
  return (CONNECTOR_NAMES as readonly string[]).includes(value);
}

/** `intel_abuseipdb` → `abuseipdb`; undefined for the other tools. */
export function connectorOfTool(tool: string): ConnectorName | undefined {
  const name = tool.startsWith('intel_') ? tool.slice('intel_'.length) : '';
  return isConnectorName(name) ? name : undefined;
}
