import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/meta';
import { config } from '../../shared/config';
import { SERVICE_VERSION } from '../../shared/version';

export const handler = httpHandler(routes.health, async () => ({
  statusCode: 200,
  body: {
    status: 'ok',
    service: 'security-investigation-service',
    version: SERVICE_VERSION,
    tenant: config().SIS_TENANT,
    time: new Date().toISOString(),
  },
}));
