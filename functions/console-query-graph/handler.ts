import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/graph';
import { graphStore, queryKnowledgeGraph } from '../../shared/services/graph/knowledge-graph';

/** GET /api/v1/console/graph/entity/{value}?type=&depth=&limit=&cursor= */
export const handler = httpHandler(routes.queryConsoleGraph, async ({ params, query }) => ({
  statusCode: 200,
  body: await queryKnowledgeGraph(graphStore(), { value: params.value, ...query }),
  headers: { 'cache-control': 'no-store' },
}));
