import { defineRoute } from '../route-types';
import { HealthResponse } from '../schemas/meta';

export const health = defineRoute({
  operationId: 'getHealth',
  method: 'GET',
  path: '/health',
  access: { kind: 'public' },
  functionName: 'health',
  summary: 'Service health',
  description: 'Liveness check. Needs no API key and reads no data.',
  tags: ['meta'],
  request: {},
  responses: { 200: { description: 'The service is up', schema: HealthResponse } },
});

export const metaRoutes = [health] as const;
