import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * One logger and one metrics instance per process (per Lambda cold start). Handlers append the
 * request, session and key IDs as persistent keys; key secrets and Authorization values are never
 * passed to the logger.
 */
export const logger = new Logger({ serviceName: 'security-investigation-service' });

export const metrics = new Metrics({
  namespace: 'SecurityInvestigationService',
  serviceName: 'security-investigation-service',
});
