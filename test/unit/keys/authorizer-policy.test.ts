import { describe, expect, it } from 'vitest';
import { servedPaths } from '../../../shared/api/route-types';
import { ROUTES } from '../../../shared/api/routes';
import { generateKeyId, generateSecret } from '../../../shared/domain/keys/api-key';
import { type ApiKeyRecord, newKeyRecord } from '../../../shared/domain/keys/key-lifecycle';
import { methodArn, policyAllows } from '../../../shared/domain/keys/policy';
import { callerMayAccess, type KeyRole, SCOPES, type Scope } from '../../../shared/domain/keys/scopes';
import { authorizerContext, policyFor, policyRoutes } from '../../../shared/services/auth/key-authorizer';

const base = { region: 'eu-west-1', accountId: '123456789012', apiId: 'abc123', stage: 'prod' };
const routes = policyRoutes(ROUTES);
const requestArn = methodArn(base, 'GET', '/health');

function key(role: KeyRole, scopes: Scope[], rate?: ApiKeyRecord['rate_limit']): ApiKeyRecord {
  const keyId = generateKeyId();
  return newKeyRecord(
    { name: 'k', scopes, role, ...(rate ? { rate_limit: rate } : {}) },
    keyId,
    generateSecret(keyId),
    'test',
    new Date(),
  );
}

/** A concrete request path for a template: `{param}` becomes a plausible value. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'abcdefgh23456789');

const callers: [string, ApiKeyRecord][] = [
  ['admin without scopes', key('admin', [])],
  ['admin with all scopes', key('admin', [...SCOPES])],
  ...SCOPES.map((scope): [string, ApiKeyRecord] => [`client with ${scope}`, key('client', [scope])]),
  ['client with all scopes', key('client', [...SCOPES])],
];

describe('authorizer policy derived from the route table', () => {
  it.each(callers)('%s: allows exactly the protected routes its role and scopes reach', (_label, record) => {
    const policy = policyFor(record, routes, requestArn);
    for (const route of ROUTES) {
      if (route.access.kind === 'public') continue;
      const expected = callerMayAccess(
        { keyId: record.key_id, role: record.role, scopes: record.scopes },
        route.access,
      );
      for (const path of servedPaths(route)) {
        const arn = methodArn(base, route.method, concrete(path));
        expect(policyAllows(policy, arn), `${route.method} ${path}`).toBe(expected);
      }
    }
  });

  it('never lets a client key reach the admin routes, whatever its scopes', () => {
    const policy = policyFor(key('client', [...SCOPES]), routes, requestArn);
    for (const route of ROUTES.filter((r) => r.access.kind === 'admin')) {
      expect(policyAllows(policy, methodArn(base, route.method, concrete(route.path)))).toBe(false);
    }
  });

  it('scopes resources to the API and stage of the request', () => {
    const policy = policyFor(key('admin', []), routes, requestArn);
    const otherStage = methodArn({ ...base, stage: 'dev' }, 'GET', '/api/v1/admin/keys');
    const otherApi = methodArn({ ...base, apiId: 'zzz999' }, 'GET', '/api/v1/admin/keys');
    expect(policyAllows(policy, methodArn(base, 'GET', '/api/v1/admin/keys'))).toBe(true);
    expect(policyAllows(policy, otherStage)).toBe(false);
    expect(policyAllows(policy, otherApi)).toBe(false);
  });

  it('lets a key without scopes reach only the routes any key reaches (the MCP endpoint)', () => {
    // Creation refuses a client key without scopes; a stored record can still end up holding none. The
    // MCP endpoint admits any valid key (its tools check scopes, so such a key lists no tool).
    const record: ApiKeyRecord = { ...key('client', ['graph:read']), scopes: [] };
    const policy = policyFor(record, routes, requestArn);
    const anyKey = ROUTES.filter((r) => r.access.kind === 'key');
    expect(anyKey.map((r) => r.operationId).sort()).toEqual(['mcp', 'mcpDelete', 'mcpGet']);
    expect(policy.Statement).toEqual([
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: anyKey.map((r) => methodArn(base, r.method, r.path)).sort(),
      },
    ]);
    for (const route of ROUTES) {
      const arn = methodArn(base, route.method, concrete(route.path));
      expect(policyAllows(policy, arn), route.operationId).toBe(route.access.kind === 'key');
    }
  });

  it('returns an explicit Deny for a key that reaches no route at all', () => {
    // Without the any-key routes, a key without scopes reaches nothing.
    const record: ApiKeyRecord = { ...key('client', ['graph:read']), scopes: [] };
    const scoped = ROUTES.filter((r) => r.access.kind !== 'key');
    const policy = policyFor(record, policyRoutes(scoped), requestArn);
    expect(policy.Statement).toEqual([
      { Action: 'execute-api:Invoke', Effect: 'Deny', Resource: [methodArn(base, '*', '/*')] },
    ]);
    for (const route of ROUTES) {
      expect(policyAllows(policy, methodArn(base, route.method, concrete(route.path)))).toBe(false);
    }
  });

  it('hands key ID, role, scopes and limits to the handlers and the gateway', () => {
    const record = key('client', ['search:read', 'graph:read'], {
      rate_per_second: 3,
      burst: 6,
      daily_quota: 900,
    });
    expect(authorizerContext(record)).toEqual({
      keyId: record.key_id,
      keyName: record.name,
      role: 'client',
      scopes: 'search:read,graph:read',
      rateLimitPerSecond: 3,
      burstLimit: 6,
      dailyQuota: 900,
    });
    expect(authorizerContext(key('client', ['graph:read'])).dailyQuota).toBe(0);
  });
});
