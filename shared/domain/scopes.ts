/**
 * Scopes a key can carry. `admin` is deliberately not a scope: it is a role on the key record, so no
 * scope list given to a plugin key can ever grant key management.
 */
export const SCOPES = [
  'investigations:read',
  'investigations:write',
  'incidents:read',
  'incidents:write',
  'search:read',
  'graph:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export type KeyRole = 'admin' | 'client';

/** The five scopes the plugin setup guide asks for. */
export const PLUGIN_SCOPES: readonly Scope[] = [
  'investigations:read',
  'investigations:write',
  'incidents:read',
  'search:read',
  'graph:read',
];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Who is calling, as established by the authorizer. */
export interface Caller {
  keyId: string;
  role: KeyRole;
  scopes: Scope[];
}

/** What a route demands of its caller. */
export type Access = { kind: 'public' } | { kind: 'scope'; scope: Scope } | { kind: 'admin' };

export function callerMayAccess(caller: Caller, access: Access): boolean {
  switch (access.kind) {
    case 'public':
      return true;
    case 'admin':
      return caller.role === 'admin';
    case 'scope':
      return caller.scopes.includes(access.scope);
  }
}
