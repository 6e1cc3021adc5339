import type { ConsoleRole } from '../../domain/keys/scopes';
import type { RouteDefinition } from '../route-types';

/**
 * What makes a route a console route: its tag and a console access (Bearer ID token through the
 * console authorizer, never an API key). Every console row, the console's own (routes/console.ts) and
 * the twins that sit with their feature's API rows, is built from these constants, so a console twin
 * differs from its API row only in operationId, path, access, tags and wording. Some twins are served
 * by the API row's function (allowlist, feedback, feeds: the handler picks the row by path), others by
 * a console-* function of their own (sessions, incidents, graph, keys: they answer without the plugin
 * size caps or with the signed-in person as the actor).
 */
export const CONSOLE_TAG = 'console';

export const consoleAnalyst = { kind: 'console', role: 'analyst' } as const satisfies {
  kind: 'console';
  role: ConsoleRole;
};
export const consoleAdmin = { kind: 'console', role: 'admin' } as const satisfies {
  kind: 'console';
  role: ConsoleRole;
};
export const consoleTags = [CONSOLE_TAG] as const;

/** Console routes (pages, assets and data) are the browser app's; the OpenAPI documents leave them out. */
export function isConsoleRoute(route: RouteDefinition): boolean {
  return route.tags.includes(CONSOLE_TAG);
}
