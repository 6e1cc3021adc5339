import { ForbiddenError, NotFoundError } from '../core/errors';
import type { Caller } from './scopes';

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

export function isOwner(resource: Owned, caller: Pick<Caller, 'keyId' | 'tenantWide'>): boolean {
  // An empty owner (a record written without one) belongs to nobody.
  if (resource.owner_key_id.length === 0) return false;
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

export function assertOwner<T extends Owned>(
  resource: T | undefined | null,
  caller: Pick<Caller, 'keyId' | 'tenantWide'>,
  what = 'session',
): T {
  if (!resource) throw new NotFoundError(`No ${what} with this ID.`);
  if (!isOwner(resource, caller)) throw new ForbiddenError(`This API key does not own the ${what}.`);
  return resource;
}
