import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_LIST_PATH, accessListModule } from '../../../scripts/scope-table';
import { ACCESS_LIST } from '../../../shared/api/generated/access-list';
import { ROUTES } from '../../../shared/api/routes';
import { policyRoutes } from '../../../shared/services/auth/key-authorizer';

describe('the authorizer access list (shared/api/generated/access-list.ts)', () => {
  it('is the route table without schemas (run `npm run docs:scopes` after changing a route)', () => {
    expect(ACCESS_LIST).toEqual(policyRoutes(ROUTES));
  });

  it('is the generator output, so nobody edits it by hand', () => {
    const normalise = (text: string) =>
      text
        .replace(/\s+/g, '')
        .replaceAll('"', "'")
        .replace(/'(\w+)':/g, '$1:')
        .replace(/,([\]}])/g, '$1');
    expect(normalise(readFileSync(ACCESS_LIST_PATH, 'utf8'))).toBe(normalise(accessListModule(ROUTES)));
  });

  it('lists every route with its method, every served path and its access rule', () => {
    expect(ACCESS_LIST).toHaveLength(ROUTES.length);
    const poll = ACCESS_LIST.find((entry) => entry.paths.includes('/api/v1/public/sessions/{session_id}'));
    expect(poll).toEqual({
      method: 'GET',
      paths: ['/api/v1/public/sessions/{session_id}', '/proxy/agent/api/v1/public/sessions/{session_id}'],
      access: { kind: 'scope', scope: 'investigations:read' },
    });
  });
});
