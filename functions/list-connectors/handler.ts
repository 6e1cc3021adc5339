import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/connectors';
import { connectorsOverview } from '../../shared/services/intel/connectors-overview';

/** GET /api/v1/admin/connectors: each intelligence connector's settings and today's state, never a key. */
export const handler = httpHandler(routes.listConnectors, async () => ({
  statusCode: 200,
  body: { connectors: await connectorsOverview() },
  headers: { 'cache-control': 'no-store' },
}));
