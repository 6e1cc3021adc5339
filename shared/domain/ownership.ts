import { ForbiddenError, NotFoundError } from './errors';
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

export function isOwner(resource: Owned, caller: Pick<Caller, 'keyId'>): boolean {
  // An empty owner (a record written without one) belongs to nobody.
  return resource.owner_key_id.length > 0 && resource.owner_key_id === caller.keyId;
}

export function assertOwner<T extends Owned>(
  resource: T | undefined | null,
  caller: Pick<Caller, 'keyId'>,
  what = 'session',
): T {
  if (!resource) throw new NotFoundError(`No ${what} with this ID.`);
  if (!isOwner(resource, caller)) throw new ForbiddenError(`This API key does not own the ${what}.`);
  return resource;
}
