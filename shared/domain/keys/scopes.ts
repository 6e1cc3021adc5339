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

/** Roles of people signed in to the console (from their identity provider groups). */
export type ConsoleRole = 'analyst' | 'admin';

/** A person signed in to the console, as established by the console authorizer. */
export interface ConsoleUser {
  sub: string;
  username: string;
  email?: string | undefined;
  role: ConsoleRole;
  groups: string[];
}

/**
 * Who is calling, as established by an authorizer. `keyId` is the owner ID of what the caller creates
 * (a key ID, or `user:<sub>` for a person). `user` is set only for console sign-ins; `tenantWide`
 * lets the caller read every session of the tenant (console users), not only its own.
 */
export interface Caller {
  keyId: string;
  /** The API key's name (keys only; from the authorizer's context, absent on a context cached before it was added). */
  keyName?: string | undefined;
  role: KeyRole;
  scopes: Scope[];
  user?: ConsoleUser | undefined;
  tenantWide?: boolean | undefined;
  /** The endpoint the request came through when it is not the REST API; sessions it starts record it. */
  via?: StartChannel | undefined;
}

/** Where a key's request can come from besides the REST API: the MCP endpoint (docs/mcp.md). */
export type StartChannel = 'mcp';

/** What a route demands of its caller. */
export type Access =
  | { kind: 'public' }
  | { kind: 'scope'; scope: Scope }
  /** Any API key (not a console sign-in): the route checks finer scopes itself (the MCP endpoint's tools). */
  | { kind: 'key' }
  | { kind: 'admin' }
  | { kind: 'console'; role: ConsoleRole };

export function consoleRoleAllows(role: ConsoleRole, needed: ConsoleRole): boolean {
  return needed === 'analyst' || role === 'admin';
}

export function callerMayAccess(caller: Caller, access: Access): boolean {
  switch (access.kind) {
    case 'public':
      return true;
    case 'key':
      return !caller.user;
    case 'admin':
      return caller.role === 'admin' && !caller.user;
    case 'scope':
      return !caller.user && caller.scopes.includes(access.scope);
    case 'console':
      return !!caller.user && consoleRoleAllows(caller.user.role, access.role);
  }
}
