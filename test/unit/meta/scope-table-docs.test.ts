import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCOPE_TABLE_PATH, scopeTableMarkdown } from '../../../scripts/scope-table';
import { ROUTES } from '../../../shared/api/routes';

describe('docs/scopes.md', () => {
  it('matches the route table (run `npm run docs:scopes` after changing a route)', () => {
    expect(readFileSync(SCOPE_TABLE_PATH, 'utf8')).toBe(scopeTableMarkdown(ROUTES));
  });

  it('names the access rule of every route', () => {
    const table = scopeTableMarkdown(ROUTES);
    for (const route of ROUTES) expect(table).toContain(`\`${route.operationId}\``);
  });
});
