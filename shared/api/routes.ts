import type { RouteDefinition } from './route-types';
import { batchRoutes } from './routes/batches';
import { connectorRoutes } from './routes/connectors';
import { consoleRoutes } from './routes/console';
import { feedRoutes } from './routes/feeds';
import { graphConsoleRoutes, graphRoutes } from './routes/graph';
import { incidentConsoleRoutes, incidentRoutes } from './routes/incidents';
import { investigationConsoleRoutes, investigationRoutes } from './routes/investigations';
import { keyConsoleRoutes, keyRoutes } from './routes/keys';
import { mcpRoutes } from './routes/mcp';
import { metaRoutes } from './routes/meta';
import { searchRoutes } from './routes/search';
import { tenantKnowledgeRoutes } from './routes/tenant-knowledge';
import { webhookRoutes } from './routes/webhooks';

/**
 * The route table: the single declaration of the API. CDK builds API Gateway resources, methods and
 * functions from it; the local gateway routes and authorizes with it; the OpenAPI document and the
 * authorization-matrix tests are generated from it. Each feature keeps its rows, API and console twins, in `routes/<feature>.ts`; the order
 * below is the order of the generated documents.
 */
export const ROUTES: readonly RouteDefinition[] = [
  ...metaRoutes,
  ...keyRoutes,
  ...investigationRoutes,
  ...graphRoutes,
  ...incidentRoutes,
  ...searchRoutes,
  ...consoleRoutes,
  ...investigationConsoleRoutes,
  ...incidentConsoleRoutes,
  ...graphConsoleRoutes,
  ...keyConsoleRoutes,
  ...connectorRoutes,
  ...tenantKnowledgeRoutes,
  ...feedRoutes,
  ...batchRoutes,
  ...mcpRoutes,
  ...webhookRoutes,
];

export function routeByOperationId(operationId: string): RouteDefinition {
  const route = ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`No route with operationId ${operationId}`);
  return route;
}
