import { defineRoute } from '../route-types';
import { consoleAnalyst, consoleTags } from './console-twin';

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

/**
 * The console's Admin > Connectors reads the same view. Console analysts may read it too (IntelOwl
 * shows every user its analyzers and their health): it holds settings and today's state, never a key.
 * Served by the admin route's function (list-connectors/handler.ts picks the row by path).
 */
export const listConsoleConnectors = /* @__PURE__ */ defineRoute({
  ...listConnectors,
  operationId: 'listConsoleConnectors',
  path: '/api/v1/console/connectors',
  access: consoleAnalyst,
  summary: 'List threat-intelligence connectors (console analysts and admins)',
  description: 'The same as listConnectors.',
  tags: consoleTags,
});

export const connectorRoutes = [listConnectors, listConsoleConnectors] as const;
