import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';

/**
 * API Gateway REST REQUEST authorizer. Placeholder that rejects every request until the key
 * verification lands (fail closed).
 */
export const handler = async (_event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  throw new Error('Unauthorized');
};
