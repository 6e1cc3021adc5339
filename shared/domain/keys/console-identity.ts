import type { ConsoleRole, ConsoleUser } from './scopes';

/**
 * People reach the console through an OpenID Connect sign-in (Cognito on AWS, the in-process issuer
 * locally), and their ID token's `cognito:groups` decide what they may do: `admins` → admin (manages
 * keys too), `analysts` → analyst, anything else → no console access at all.
 */
export const ADMIN_GROUP = 'admins';
export const ANALYST_GROUP = 'analysts';

export function roleFromGroups(groups: readonly string[]): ConsoleRole | undefined {
  if (groups.includes(ADMIN_GROUP)) return 'admin';
  if (groups.includes(ANALYST_GROUP)) return 'analyst';
  return undefined;
}

/** The verified ID token claims the console uses. */
export interface IdTokenClaims {
  sub?: unknown;
  'cognito:username'?: unknown;
  'cognito:groups'?: unknown;
  email?: unknown;
  token_use?: unknown;
}

export type ConsoleIdentity =
  | { ok: true; user: ConsoleUser }
  | { ok: false; reason: 'not_id_token' | 'no_subject' | 'no_console_group' };

export function consoleIdentity(claims: IdTokenClaims): ConsoleIdentity {
  if (claims.token_use !== 'id') return { ok: false, reason: 'not_id_token' };
  if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 128) {
    return { ok: false, reason: 'no_subject' };
  }
  const groups = Array.isArray(claims['cognito:groups'])
    ? claims['cognito:groups'].filter((g): g is string => typeof g === 'string')
    : [];
  const role = roleFromGroups(groups);
  if (!role) return { ok: false, reason: 'no_console_group' };
  const username = typeof claims['cognito:username'] === 'string' ? claims['cognito:username'] : claims.sub;
  return {
    ok: true,
    user: {
      sub: claims.sub,
      username,
      ...(typeof claims.email === 'string' ? { email: claims.email } : {}),
      role,
      groups,
    },
  };
}
