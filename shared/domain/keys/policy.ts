import { type Access, type Caller, callerMayAccess, type KeyRole } from './scopes';

/**
 * The authorizer's IAM policy, derived from the route table. It lists every method the key may call,
 * so a cached decision is right for every route, and the gateway (API Gateway or the local one)
 * answers 403 for anything outside it.
 */
export interface ApiArnBase {
  region: string;
  accountId: string;
  apiId: string;
  stage: string;
}

export interface PolicyRoute {
  method: string;
  paths: readonly string[];
  access: Access;
}

/** What the authorizer hands to handlers and to the local gateway; API Gateway flattens it to strings. */
export interface AuthorizerContext {
  keyId: string;
  /** The key's name (names never change), recorded on the sessions the key starts. */
  keyName: string;
  role: KeyRole;
  /** Comma-separated scopes. */
  scopes: string;
  rateLimitPerSecond: number;
  burstLimit: number;
  dailyQuota: number;
}

export function parseMethodArn(methodArn: string): ApiArnBase & { method: string; resourcePath: string } {
  // arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{METHOD}/{resource path}
  const [, , , region = '', accountId = '', rest = ''] = methodArn.split(':');
  const [apiId = '', stage = '', method = '', ...pathParts] = rest.split('/');
  return { region, accountId, apiId, stage, method, resourcePath: `/${pathParts.join('/')}` };
}

export function methodArn(base: ApiArnBase, method: string, path: string): string {
  return `arn:aws:execute-api:${base.region}:${base.accountId}:${base.apiId}/${base.stage}/${method}${path}`;
}

/** `{param}` segments become `*`, as API Gateway matches them. */
export function methodArnPattern(base: ApiArnBase, method: string, pathTemplate: string): string {
  return methodArn(base, method, pathTemplate.replace(/\{[^}]+\}/g, '*'));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** IAM-style wildcard match: `*` matches any run of characters, `?` exactly one. */
export function arnMatches(pattern: string, arn: string): boolean {
  const source = escapeRegExp(pattern)
    .replace(/\*/g, '.*')
    .replace(/\\\?|\?/g, '.');
  return new RegExp(`^${source}$`).test(arn);
}

export function allowedResources(caller: Caller, routes: readonly PolicyRoute[], base: ApiArnBase): string[] {
  const resources = new Set<string>();
  for (const route of routes) {
    if (route.access.kind === 'public' || !callerMayAccess(caller, route.access)) continue;
    for (const path of route.paths) resources.add(methodArnPattern(base, route.method, path));
  }
  return [...resources].sort();
}

export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: { Action: 'execute-api:Invoke'; Effect: 'Allow' | 'Deny'; Resource: string[] }[];
}

export function policyAllows(policy: PolicyDocument, arn: string): boolean {
  const matching = policy.Statement.filter((s) => s.Resource.some((r) => arnMatches(r, arn)));
  return matching.length > 0 && matching.every((s) => s.Effect === 'Allow');
}
