import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteDefinition } from '../shared/api/route-types';
import { servedPaths } from '../shared/api/route-types';
import { ROUTES } from '../shared/api/routes';
import { policyRoutes } from '../shared/services/auth/key-authorizer';

/** Renders the route → access table from the route table; `npm run docs:scopes` rewrites docs/scopes.md. */
export function scopeTableMarkdown(routes: readonly RouteDefinition[]): string {
  const access = (route: RouteDefinition): string => {
    switch (route.access.kind) {
      case 'public':
        return 'none (public)';
      case 'key':
        return 'any API key (each MCP tool checks its scope: docs/mcp.md)';
      case 'admin':
        return 'admin role';
      case 'scope':
        return `\`${route.access.scope}\`${route.ownerOnly ? ' + owner of the session' : ''}`;
      case 'console':
        return route.access.role === 'admin'
          ? 'console sign-in, group `admins`'
          : 'console sign-in, group `analysts` or `admins`';
    }
  };
  const rows = routes.map((route) => {
    const paths = servedPaths(route)
      .map((p) => `\`${p}\``)
      .join('<br>');
    return `| ${route.method} | ${paths} | \`${route.operationId}\` | ${access(route)} | ${route.pluginSkill ?? ''} |`;
  });
  return [
    '# Scopes and access per route',
    '',
    'Generated from `shared/api/routes.ts` by `npm run docs:scopes`; a unit test fails when this file is',
    'out of date. The authorizer allows exactly these methods for a key, the local gateway and API Gateway',
    'answer 403 outside them, and session routes also check that the caller created the session.',
    '',
    'Console routes (`/api/v1/console/...`) take no API key: a person signed in to the web console sends',
    "the ID token of the tenant's user pool (docs/console.md); the console authorizer refuses anything",
    "else with 401 and a role below the route's with 403. Analysts read every session of the tenant.",
    '',
    '| Method | Paths | Operation | Needs | Plugin skill |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

export const SCOPE_TABLE_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../docs/scopes.md');

export const ACCESS_LIST_PATH = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../shared/api/generated/access-list.ts',
);

/**
 * The authorizer's schema-free view of the route table (method, served paths, access), written as a
 * module so the authorizer bundle carries no route schemas; test/unit/meta/access-list.test.ts fails when
 * it drifts from the route table.
 */
export function accessListModule(routes: readonly RouteDefinition[]): string {
  return [
    '// Generated from the route table (shared/api/routes.ts) by `npm run docs:scopes`; do not edit.',
    "import type { PolicyRoute } from '../../domain/keys/policy';",
    '',
    `export const ACCESS_LIST: readonly PolicyRoute[] = ${JSON.stringify(policyRoutes(routes), null, 2)};`,
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(SCOPE_TABLE_PATH, scopeTableMarkdown(ROUTES));
  console.log(`wrote ${SCOPE_TABLE_PATH}`);
  writeFileSync(ACCESS_LIST_PATH, accessListModule(ROUTES));
  execFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../node_modules/.bin/biome'), [
    'format',
    '--write',
    ACCESS_LIST_PATH,
  ]);
  console.log(`wrote ${ACCESS_LIST_PATH}`);
}
