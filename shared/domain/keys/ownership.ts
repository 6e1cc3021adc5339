import { ForbiddenError, NotFoundError } from '../core/errors';
import type { Caller, StartChannel } from './scopes';

/**
 * Sessions belong to the key ID that started them. Rotation keeps the key ID, so it keeps ownership;
 * no other key, admin keys included, may read, cancel or search them.
 *
 * A session of another key is answered 403 (the spec's "the key does not own the session"), an
 * unknown one 404. Session IDs are random, so the difference reveals nothing guessable.
 */
export interface Owned {
  owner_key_id: string;
}

/**
 * The owner of the investigations the service starts by itself for arriving incidents
 * (docs/soar.md): no key is it, admin keys and console users read them.
 */
export const SYSTEM_OWNER_ID = 'system:auto-investigation';

export function isOwner(
  resource: Owned,
  caller: Pick<Caller, 'keyId' | 'tenantWide'> & { role?: Caller['role'] },
): boolean {
  // An empty owner (a record written without one) belongs to nobody.
  if (resource.owner_key_id.length === 0) return false;
  if (resource.owner_key_id === SYSTEM_OWNER_ID && caller.role === 'admin') return true;
  // Console users read every session of the tenant (the spec's analysts); keys only their own.
  return caller.tenantWide === true || resource.owner_key_id === caller.keyId;
}

/** Owner IDs are key IDs, or `user:<sub>` for an investigation started by a person in the console. */
export function userOwnerId(sub: string): string {
  return `user:${sub}`;
}

export function ownerOf(ownerId: string): { kind: 'key' | 'user'; id: string } {
  return ownerId.startsWith('user:') ? { kind: 'user', id: ownerId.slice(5) } : { kind: 'key', id: ownerId };
}

/**
 * What a session records of whoever starts it: the person's username, else the key's name, and the
 * endpoint a key came through when not the REST API (the console shows "(MCP)").
 */
export function starterName(caller: Pick<Caller, 'keyName' | 'user' | 'via'>): {
  owner_name?: string;
  started_via?: StartChannel;
} {
  const name = caller.user ? caller.user.username : caller.keyName;
  return { ...(name ? { owner_name: name } : {}), ...(caller.via ? { started_via: caller.via } : {}) };
}

/**
 * Who started a session, as the poll answers it: an API key (its ID and name) or a person (their
 * username). `name` is what the session recorded at its start; a session from before names were
 * recorded falls back to what the caller itself knows (its own key's name, or the signed-in person's
 * own username), else null (the console then looks a key's name up in the keys table).
 */
export type StartedBy =
  | { kind: 'api_key'; key_id: string; name: string | null; via?: StartChannel }
  | { kind: 'user'; name: string | null };

export function startedBy(
  session: Owned & { owner_name?: string | undefined; started_via?: StartChannel | undefined },
  caller: Pick<Caller, 'keyId' | 'keyName' | 'user'>,
): StartedBy {
  const owner = ownerOf(session.owner_key_id);
  const recorded = session.owner_name || undefined;
  if (owner.kind === 'user') {
    const self = caller.user !== undefined && caller.user.sub === owner.id;
    return { kind: 'user', name: recorded ?? (self ? caller.user?.username || null : null) };
  }
  const own = owner.id === caller.keyId ? caller.keyName : undefined;
  return {
    kind: 'api_key',
    key_id: owner.id,
    name: recorded ?? (own || null),
    ...(session.started_via ? { via: session.started_via } : {}),
  };
}

export function assertOwner<T extends Owned>(
  resource: T | undefined | null,
  caller: Pick<Caller, 'keyId' | 'tenantWide'> & { role?: Caller['role'] },
  what = 'session',
): T {
  if (!resource) throw new NotFoundError(`No ${what} with this ID.`);
  if (!isOwner(resource, caller)) throw new ForbiddenError(`This API key does not own the ${what}.`);
  return resource;
}
