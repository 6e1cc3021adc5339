import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { ROUTES } from '../../shared/api/routes';
import { type ApiArnBase, methodArn } from '../../shared/domain/keys/policy';
import { type ConsoleUser, SCOPES } from '../../shared/domain/keys/scopes';
import { consoleAuthorizerContext } from '../../shared/services/auth/console-authorizer';

/**
 * API Gateway events for calling a handler directly (the cold-start children): the event API
 * Gateway would deliver for one ordinary request per route, with the authorizer context it would
 * attach. The requests use data the bench seeded, so each call does its real work.
 */
export interface SampleData {
  sessionId: string;
  /** A value present in the knowledge graph. */
  graphValue: string;
  clientKeyId: string;
  clientApiKey: string;
  adminKeyId: string;
  /** Keys the bench may rotate, and disable (two, so a disabled key is never the one rotated). */
  rotateKeyId: string;
  disableKeyId: string;
  /** An analyst's ID token from the bench service's local issuer (the console authorizer's call). */
  consoleIdToken?: string;
}

interface SampleRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

const ARN_BASE: ApiArnBase = {
  region: 'us-east-1',
  accountId: '000000000000',
  apiId: 'bench',
  stage: 'bench',
};

/** The person the console routes' events come from, as the console authorizer describes them. */
const BENCH_PERSON: ConsoleUser = {
  sub: 'bench-person',
  username: 'bench',
  role: 'admin',
  groups: ['admins', 'analysts'],
};

function sampleRequest(operationId: string, data: SampleData): SampleRequest {
  const session = { session_id: data.sessionId };
  switch (operationId) {
    case 'startInvestigation':
      return { body: { entity: { type: 'domain', value: 'login.example.com' }, background: true } };
    case 'getSessionHistory':
    case 'getInvestigationReport':
    case 'getConsoleSessionHistory':
    case 'getConsoleReport':
    case 'getConsoleStix':
    case 'cancelInvestigation':
      return { params: session };
    case 'queryKnowledgeGraph':
      return { params: { value: data.graphValue }, query: { limit: '20' } };
    case 'listIncidents':
      return { query: { severity: 'high,critical', limit: '20' } };
    case 'ingestIncidents':
      return {
        body: {
          incidents: [
            {
              source: 'bench',
              source_id: 'cold-start-1',
              title: 'Cold start sample',
              severity: 'low',
              status: 'new',
              created_at: '2026-01-01T00:00:00Z',
              entities: [{ type: 'ip', value: '192.0.2.10' }],
            },
          ],
        },
      };
    case 'searchInvestigations':
      return { query: { q: 'type:ip', limit: '20' } };
    case 'createApiKey':
      return { body: { name: 'cold start sample', scopes: ['incidents:read'] } };
    case 'listApiKeys':
      return {};
    case 'rotateApiKey':
      return { params: { key_id: data.rotateKeyId }, body: { grace_period_seconds: 0 } };
    case 'disableApiKey':
      return { params: { key_id: data.disableKeyId } };
    // The MCP endpoint's poll twin: get_investigation as a 2025-era client sends it (no initialize: stateless).
    case 'mcp':
      return {
        headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_investigation', arguments: session },
        },
      };
    default:
      return {};
  }
}

/**
 * The console authorizer's event for a console poll, as API Gateway sends it: the Bearer ID token in
 * Authorization. Its first call verifies the token, which fetches the issuer's JWKS once.
 */
export function consoleAuthorizerEvent(data: SampleData & { consoleIdToken: string }) {
  return pollAuthorizerEvent('getConsoleSessionHistory', data.sessionId, 'bench-console-authorizer', {
    authorization: `Bearer ${data.consoleIdToken}`,
  });
}

/** The event of one ordinary request to the route served by `functionName` (undefined: not HTTP). */
export function httpEvent(functionName: string, data: SampleData): APIGatewayProxyEvent | undefined {
  const route = ROUTES.find((r) => r.functionName === functionName);
  if (!route) return undefined;
  const request = sampleRequest(route.operationId, data);
  const path = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(request.params?.[name] ?? ''),
  );
  const body = request.body === undefined ? null : JSON.stringify(request.body);
  const headers: Record<string, string> = { host: 'bench.local', 'user-agent': 'bench', ...request.headers };
  if (body) headers['content-type'] = 'application/json';
  const admin = route.access.kind === 'admin';
  const authorizer =
    route.access.kind === 'public'
      ? null
      : route.access.kind === 'console'
        ? consoleAuthorizerContext(BENCH_PERSON)
        : {
            principalId: admin ? data.adminKeyId : data.clientKeyId,
            keyId: admin ? data.adminKeyId : data.clientKeyId,
            role: admin ? 'admin' : 'client',
            scopes: admin ? '' : SCOPES.join(','),
          };
  return {
    resource: route.path,
    path,
    httpMethod: route.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: request.query ?? null,
    multiValueQueryStringParameters: request.query
      ? Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, [v]]))
      : null,
    pathParameters: request.params ?? null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: ARN_BASE.accountId,
      apiId: ARN_BASE.apiId,
      stage: ARN_BASE.stage,
      requestId: `bench-${functionName}`,
      requestTimeEpoch: Date.now(),
      resourcePath: route.path,
      resourceId: route.path,
      path,
      httpMethod: route.method,
      protocol: 'HTTP/1.1',
      authorizer,
      identity: { sourceIp: '127.0.0.1', userAgent: 'bench' },
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

/** The authorizer's REQUEST event for a poll by the client key. */
export function authorizerEvent(data: SampleData): APIGatewayRequestAuthorizerEvent {
  return pollAuthorizerEvent('getSessionHistory', data.sessionId, 'bench-authorizer', {
    'x-api-key': data.clientApiKey,
  });
}

/** A REQUEST authorizer event for polling one session through `operationId`, as API Gateway sends it. */
function pollAuthorizerEvent(
  operationId: string,
  sessionId: string,
  requestId: string,
  headers: Record<string, string>,
): APIGatewayRequestAuthorizerEvent {
  const route = ROUTES.find((r) => r.operationId === operationId)!;
  const path = route.path.replace('{session_id}', sessionId);
  return {
    type: 'REQUEST',
    methodArn: methodArn(ARN_BASE, route.method, path),
    resource: route.path,
    path,
    httpMethod: route.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { session_id: sessionId },
    stageVariables: null,
    requestContext: { requestId },
  } as unknown as APIGatewayRequestAuthorizerEvent;
}
