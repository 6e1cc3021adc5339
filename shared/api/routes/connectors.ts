import { defineRoute } from '../route-types';

export const listConnectors = /* @__PURE__ */ defineRoute({
  operationId: 'listConnectors',
  method: 'GET',
  path: '/api/v1/admin/connectors',
  access: { kind: 'admin' },
  functionName: 'list-connectors',
  summary: 'List threat-intelligence connectors',
  description: `Lists every threat-intelligence connector (AbuseIPDB, GreyNoise, Shodan InternetDB, URLhaus, ThreatFox, OTX, CrowdSec, VirusTotal, MISP): whether this deployment enabled it, the entity types it looks up, its maximum TLP, cache TTL, today's quota use and limit, circuit-breaker state and last error time. Keys are never shown. See docs/intel.md.`,
  tags: ['admin'],
  request: {},
  responses: { 200: { description: 'The connectors', schema: 'ListConnectorsResponse' } },
});

export const connectorRoutes = [listConnectors] as const;
