import type { RouteDefinition } from './route-types';
import { connectorRoutes } from './routes/connectors';
import { consoleRoutes } from './routes/console';
import { feedRoutes } from './routes/feeds';
import { investigationRoutes } from './routes/investigations';
import { keyRoutes } from './routes/keys';
import { knowledgeRoutes } from './routes/knowledge';
import { metaRoutes } from './routes/meta';
import { tenantKnowledgeRoutes } from './routes/tenant-knowledge';

/**
 * The route table: the single declaration of the API. CDK builds API Gateway resources, methods and
 * functions from it; the local gateway routes and authorizes with it; the OpenAPI document and the
 * authorization-matrix tests are generated from it. Each area keeps its rows in `routes/<area>.ts`.
 */
export const ROUTES: readonly RouteDefinition[] = [
  ...metaRoutes,
  ...keyRoutes,
  ...investigationRoutes,
  ...knowledgeRoutes,
  ...consoleRoutes,
  ...connectorRoutes,
  ...tenantKnowledgeRoutes,
  ...feedRoutes,
];

export function routeByOperationId(operationId: string): RouteDefinition {
  const route = ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`No route with operationId ${operationId}`);
  return route;
}
