import { httpHandler } from '../../shared/api/http-handler';
import { compactGraphNeighborhood } from '../../shared/api/plugin-responses';
import * as routes from '../../shared/api/routes/graph';
import {
  doNotShareMarks,
  graphStore,
  queryKnowledgeGraph,
} from '../../shared/services/graph/knowledge-graph';

/** GET /api/v1/graph/entity/{value}?type=&depth=&limit=&cursor= */
export const handler = httpHandler(routes.queryKnowledgeGraph, async ({ params, query }) => ({
  statusCode: 200,
  body: compactGraphNeighborhood(
    await queryKnowledgeGraph(graphStore(), {
      value: params.value,
      type: query.type,
      depth: query.depth,
      limit: query.limit,
      cursor: query.cursor,
      hideRed: true,
      doNotShare: doNotShareMarks(),
    }),
  ),
}));
