import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { type RouteDefinition, servedPaths } from '../../api/route-types';
import { hasRepeatedCredentialHeaders, presentedApiKey } from '../../domain/keys/api-key';
import type { ApiKeyRecord, DenialReason } from '../../domain/keys/key-lifecycle';
import {
  type AuthorizerContext,
  allowedResources,
  methodArn,
  type PolicyDocument,
  type PolicyRoute,
  parseMethodArn,
  policyAllows,
} from '../../domain/keys/policy';
import type { Caller } from '../../domain/keys/scopes';
import { type ApiKeyService, keysTableService } from './api-keys';

/**
 * The REST API REQUEST authorizer's decision. A rejected key throws `Unauthorized`, which API Gateway
 * (and the local gateway) turn into 401. An accepted key gets a policy allowing exactly the methods
 * its role and scopes reach in the route table, so API Gateway answers 403 for anything else and a
 * cached decision stays right for every route.
 */
export type AuthorizerOutcome =
  | {
      ok: true;
      result: APIGatewayAuthorizerResult;
      context: AuthorizerContext;
      keyId: string;
      resources: number;
      /** Whether the policy allows the request being authorised (false: the gateway answers 403). */
      inScope: boolean;
    }
  | { ok: false; reason: DenialReason; keyId?: string };

export function policyRoutes(routes: readonly RouteDefinition[]): PolicyRoute[] {
  return routes.map((route) => ({ method: route.method, paths: servedPaths(route), access: route.access }));
}

export function authorizerContext(record: ApiKeyRecord): AuthorizerContext {
  return {
    keyId: record.key_id,
    keyName: record.name,
    role: record.role,
    scopes: record.scopes.join(','),
    rateLimitPerSecond: record.rate_limit.rate_per_second,
    burstLimit: record.rate_limit.burst,
    dailyQuota: record.rate_limit.daily_quota ?? 0,
  };
}

export function policyFor(record: ApiKeyRecord, routes: readonly PolicyRoute[], arn: string): PolicyDocument {
  const base = parseMethodArn(arn);
  const caller: Caller = { keyId: record.key_id, role: record.role, scopes: record.scopes };
  const resources = allowedResources(caller, routes, base);
  if (resources.length === 0) {
    return {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: [methodArn(base, '*', '/*')] }],
    };
  }
  return {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resources }],
  };
}

export async function decide(
  event: Pick<APIGatewayRequestAuthorizerEvent, 'headers' | 'methodArn'> &
    Partial<Pick<APIGatewayRequestAuthorizerEvent, 'multiValueHeaders'>>,
  service: Pick<ApiKeyService, 'authenticate' | 'recordUse'>,
  routes: readonly PolicyRoute[],
): Promise<AuthorizerOutcome> {
  if (hasRepeatedCredentialHeaders(event.headers, event.multiValueHeaders)) {
    return { ok: false, reason: 'malformed' };
  }
  const verification = await service.authenticate(presentedApiKey(event.headers));
  if (!verification.ok) {
    return {
      ok: false,
      reason: verification.reason,
      ...(verification.keyId ? { keyId: verification.keyId } : {}),
    };
  }
  const { record } = verification;
  const policyDocument = policyFor(record, routes, event.methodArn);
  const allowed =
    policyDocument.Statement[0]?.Effect === 'Allow' ? (policyDocument.Statement[0]?.Resource.length ?? 0) : 0;
  const context = authorizerContext(record);
  // `last_used_at` is the last accepted request: a request the policy refuses (403) leaves it alone.
  const inScope = allowed > 0 && policyAllows(policyDocument, event.methodArn);
  if (inScope) await service.recordUse(record);
  return {
    ok: true,
    keyId: record.key_id,
    resources: allowed,
    inScope,
    context,
    result: {
      principalId: record.key_id,
      policyDocument,
      context: { ...context },
      // Usage plans count against this; locally the key ID stands in for it.
      usageIdentifierKey: record.usage_identifier_key ?? record.key_id,
    },
  };
}

/**
 * The authorizer's key service: authentication reads the keys table only, so it is the one built
 * without the API Gateway control plane (usage plans), whose client would otherwise be bundled and
 * loaded at every authorizer cold start.
 */
export const keyAuthenticator: () => Pick<ApiKeyService, 'authenticate' | 'recordUse'> = keysTableService;
