import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteDefinition, servedPaths } from '../../../shared/api/route-types';
import { ROUTES } from '../../../shared/api/routes';
import { isConsoleRoute } from '../../../shared/api/routes/console-twin';
import { config } from '../../../shared/config';
import { generateKeyId, generateSecret } from '../../../shared/domain/keys/api-key';
import { SCOPES } from '../../../shared/domain/keys/scopes';
import { noUsagePlans } from '../../../shared/platform/usage-plans';
import { ApiKeyService, apiKeyService } from '../../../shared/services/auth/api-keys';
import { keysRepositoryFromConfig } from '../../../shared/store/keys-repository';
import { errorShape, startTestService, type TestService } from '../../support/local-service';
import { tamperedApiKey } from '../../support/tampered-api-key';

/**
 * The authorization matrix over HTTP, generated from the route table: every protected route on every
 * path it is served at (public twins and the frontend-proxy prefix included), against every kind of
 * caller. A route added to ROUTES is covered without touching this file.
 *
 * "Admitted" means the gateway let the request through to the handler: neither 401 nor 403. The
 * requests are deliberately harmless (empty bodies, unknown IDs), so handlers answer 2xx, 400 or 404
 * and nothing is started.
 */
const PARAM_VALUES: Record<string, string> = {
  key_id: 'aaaaaaaaaaaaaaaa',
  session_id: 's_matrixunknownsession00',
  value: '203.0.113.7',
};

const concrete = (template: string) =>
  template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(PARAM_VALUES[name] ?? 'unknown'));

// Console routes take a console sign-in, never a key (test/integration/console/console-api.test.ts covers
// their roles); here every kind of key must be refused on them with 401.
const protectedRoutes = ROUTES.filter((r) => r.access.kind !== 'public' && r.access.kind !== 'console');
const publicRoutes = ROUTES.filter((r) => r.access.kind === 'public' && !isConsoleRoute(r));
const consoleDataRoutes = ROUTES.filter((r) => r.access.kind === 'console');

const cases = protectedRoutes.flatMap((route) =>
  servedPaths(route).map((path) => ({ route, path: concrete(path), label: `${route.method} ${path}` })),
);

let service: TestService;
const keys: Record<string, string> = {};

/** A key that holds exactly what the route demands, and one that holds everything but that. */
function keyFor(route: RouteDefinition, fit: 'allowed' | 'denied'): string {
  const access = route.access;
  if (access.kind === 'admin') return fit === 'allowed' ? service.adminKey : (keys.allScopes as string);
  if (access.kind === 'scope') return keys[`${fit}:${access.scope}`] as string;
  throw new Error(`no key for ${route.operationId}`);
}

/**
 * Admitted: neither 401 nor 403 and no 5xx. A route that only refuses its method (GET and DELETE on
 * the MCP endpoint, documented with a single 405 response) must answer exactly that 405 once admitted.
 */
function expectAdmitted(route: RouteDefinition, res: { status: number; text: string }): void {
  expect([401, 403], res.text).not.toContain(res.status);
  expect(res.status, res.text).toBeLessThan(500);
  const documented = Object.keys(route.responses);
  if (documented.length === 1 && documented[0] === '405') expect(res.status, res.text).toBe(405);
}

function request(route: RouteDefinition, path: string, key?: string, headers?: Record<string, string>) {
  return service.call(route.method, path, {
    ...(key ? { key } : {}),
    ...(headers ? { headers } : {}),
    ...(route.method === 'POST' ? { body: {} } : {}),
  });
}

beforeAll(async () => {
  // Limits high enough that the matrix itself is never throttled.
  service = await startTestService();
  const create = async (name: string, input: Parameters<ApiKeyService['create']>[0]) => {
    keys[name] = (await apiKeyService().create(input, 'matrix')).apiKey;
  };
  const generous = { rate_per_second: 1000, burst: 1000 };
  await create('allScopes', { name: 'all scopes', scopes: [...SCOPES], rate_limit: generous });
  for (const scope of SCOPES) {
    await create(`allowed:${scope}`, { name: `only ${scope}`, scopes: [scope], rate_limit: generous });
    const others = SCOPES.filter((s) => s !== scope);
    await create(`denied:${scope}`, { name: `all but ${scope}`, scopes: others, rate_limit: generous });
  }
  const disabled = await apiKeyService().create({ name: 'disabled', scopes: [...SCOPES] }, 'matrix');
  await apiKeyService().disable(disabled.summary.key_id, 'matrix');
  keys.disabled = disabled.apiKey;
  const past = new ApiKeyService({
    repository: keysRepositoryFromConfig(config()),
    usagePlans: noUsagePlans,
    now: () => new Date(Date.now() - 2 * 86_400_000),
  });
  keys.expired = (
    await past.create({ name: 'expired', scopes: [...SCOPES], expires_in_days: 1 }, 'matrix')
  ).apiKey;
  const unknownId = generateKeyId();
  keys.unknown = generateSecret(unknownId).apiKey;
  keys.tampered = tamperedApiKey(keys.allScopes as string);
});

afterAll(async () => {
  await service?.stop();
});

describe('authorization matrix generated from the route table', () => {
  it('covers every protected route and every path it is served at', () => {
    expect(cases.length).toBeGreaterThanOrEqual(protectedRoutes.length);
    expect(protectedRoutes.some((r) => r.access.kind === 'admin')).toBe(true);
  });

  describe.each(cases)('$label', ({ route, path }) => {
    it.each([
      ['no key', undefined],
      ['a malformed key', 'not-a-key'],
      ['a key whose checksum fails', 'tampered'],
      ['an unknown key', 'unknown'],
      ['a disabled key', 'disabled'],
      ['an expired key', 'expired'],
    ])('answers 401 for %s', async (_label, name) => {
      const key = name === undefined ? undefined : (keys[name] ?? name);
      const res = await request(route, path, key);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject(errorShape('unauthorized'));
    });

    if (route.access.kind === 'key') {
      // Any valid key reaches these routes (the MCP endpoint; its tools check scopes themselves), so
      // there is no key to refuse with 403: the key holding a single scope, the least, is admitted.
      it('admits every valid key, whatever its scopes, by X-API-Key and by Bearer', async () => {
        for (const key of [
          keys['allowed:graph:read'] as string,
          keys.allScopes as string,
          service.adminKey,
        ]) {
          expectAdmitted(route, await request(route, path, key));
          expectAdmitted(route, await request(route, path, undefined, { authorization: `Bearer ${key}` }));
        }
      });
    } else {
      it('answers 403 to a valid key without the required scope or role', async () => {
        const res = await request(route, path, keyFor(route, 'denied'));
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject(errorShape('forbidden'));
      });

      it('admits a key with exactly the required scope or role, by X-API-Key and by Bearer', async () => {
        const key = keyFor(route, 'allowed');
        expectAdmitted(route, await request(route, path, key));
        expectAdmitted(route, await request(route, path, undefined, { authorization: `Bearer ${key}` }));
      });
    }
  });

  it.each(
    consoleDataRoutes.flatMap((route) =>
      servedPaths(route).map((path) => [`${route.method} ${path}`, route, path] as const),
    ),
  )('refuses every API key on console route %s with 401', async (_label, route, path) => {
    for (const key of [service.adminKey, keys.allScopes as string]) {
      const viaHeader = await request(route, concrete(path), key);
      expect(viaHeader.status).toBe(401);
      expect(viaHeader.body).toMatchObject(errorShape('unauthorized'));
      const viaBearer = await request(route, concrete(path), undefined, { authorization: `Bearer ${key}` });
      expect(viaBearer.status).toBe(401);
    }
  });

  it.each(
    publicRoutes.flatMap((route) =>
      servedPaths(route).map((path) => [`${route.method} ${path}`, route, path] as const),
    ),
  )('serves public %s without a key', async (_label, route, path) => {
    const res = await request(route, concrete(path));
    expect([401, 403]).not.toContain(res.status);
  });
});
