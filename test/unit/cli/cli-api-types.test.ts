import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../packages/cli/src/generated/api';
import { accessFromDescription, CLI_API_TYPES_PATH, cliApiTypesSource } from '../../../scripts/cli-api-types';
import { ROUTES } from '../../../shared/api/routes';

describe('packages/cli/src/generated/api.ts', () => {
  it('matches the published OpenAPI document (run `npm run cli:api-types` after changing the API)', async () => {
    expect(readFileSync(CLI_API_TYPES_PATH, 'utf8')).toBe(await cliApiTypesSource());
    // openapi-typescript over the whole document takes seconds on the loaded shared machine
  }, 30_000);

  it("states each API-key operation's access as the route table does", () => {
    const operations: Record<string, { method: string; path: string; access: unknown }> = OPERATIONS;
    for (const route of ROUTES) {
      const operation = operations[route.operationId];
      // Console pages and data routes belong to the browser app and may stay out of the document.
      if (!operation && !['admin', 'scope'].includes(route.access.kind)) continue;
      expect(operation, route.operationId).toMatchObject({ method: route.method, path: route.path });
      expect(operation?.access).toEqual(route.access);
    }
  });

  it('refuses a document that does not state an access rule', () => {
    expect(() => accessFromDescription('x', 'Does things.')).toThrow(/access rule of x/);
    expect(accessFromDescription('y', 'Requires a console sign-in (analyst).')).toEqual({
      kind: 'console',
      role: 'analyst',
    });
  });
});
