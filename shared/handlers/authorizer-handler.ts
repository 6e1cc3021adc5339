import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { flushMetrics, logger } from '../observability';

/**
 * The wrapper of an API Gateway REQUEST authorizer: each invocation logs with the request ID alone
 * (no key from a previous caller), and the metrics it recorded are written whatever the outcome.
 * The error mapping is API Gateway's: a thrown `Error('Unauthorized')` is its documented 401, so a
 * refusal goes through unchanged.
 */
export function authorizerHandler(
  decide: (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>,
): (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult> {
  return async (event) => {
    logger.resetKeys();
    logger.appendKeys({ request_id: event.requestContext?.requestId });
    try {
      return await decide(event);
    } finally {
      flushMetrics();
    }
  };
}

/** The refusal API Gateway answers with 401 (its documented contract with a Lambda authorizer). */
export function unauthorized(): Error {
  return new Error('Unauthorized');
}
