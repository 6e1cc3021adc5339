import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { methodArn } from '../../shared/domain/keys/policy';
import type { Caller } from '../../shared/domain/keys/scopes';

/** Events shaped as API Gateway (REST, v1) sends them, for invoking handlers directly in tests. */
export const TEST_API = {
  region: 'eu-west-1',
  accountId: '123456789012',
  apiId: 'a1b2c3d4e5',
  stage: 'prod',
};

export interface ProxyEventInput {
  method: 'GET' | 'POST';
  resource: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  caller?: Caller;
}

export function proxyEvent(input: ProxyEventInput): APIGatewayProxyEvent {
  const path = input.resource.replace(
    /\{([^}]+)\}/g,
    (_m, name: string) => input.pathParameters?.[name] ?? '',
  );
  const requestId = randomUUID();
  const headers: Record<string, string> = {
    Host: `${TEST_API.apiId}.execute-api.${TEST_API.region}.amazonaws.com`,
    'User-Agent': 'vitest',
    ...(input.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
  };
  return {
    resource: input.resource,
    path,
    httpMethod: input.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: input.query ?? null,
    multiValueQueryStringParameters: input.query
      ? Object.fromEntries(Object.entries(input.query).map(([k, v]) => [k, [v]]))
      : null,
    pathParameters: input.pathParameters ?? null,
    stageVariables: null,
    body: input.body === undefined ? null : JSON.stringify(input.body),
    isBase64Encoded: false,
    requestContext: {
      accountId: TEST_API.accountId,
      apiId: TEST_API.apiId,
      stage: TEST_API.stage,
      requestId,
      requestTimeEpoch: Date.now(),
      resourcePath: input.resource,
      resourceId: 'abc123',
      path: `/${TEST_API.stage}${path}`,
      httpMethod: input.method,
      protocol: 'HTTP/1.1',
      identity: { sourceIp: '198.51.100.10', userAgent: 'vitest' },
      authorizer: input.caller
        ? {
            principalId: input.caller.keyId,
            keyId: input.caller.keyId,
            role: input.caller.role,
            scopes: input.caller.scopes.join(','),
            integrationLatency: 12,
          }
        : null,
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

export function authorizerEvent(
  headers: Record<string, string>,
  method = 'GET',
  path = '/api/v1/admin/keys',
): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: methodArn(TEST_API, method, path),
    resource: path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: {
      accountId: TEST_API.accountId,
      apiId: TEST_API.apiId,
      stage: TEST_API.stage,
      requestId: randomUUID(),
      httpMethod: method,
      path: `/${TEST_API.stage}${path}`,
      resourcePath: path,
    } as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}

export function lambdaContext(functionName = 'test'): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${TEST_API.region}:${TEST_API.accountId}:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
