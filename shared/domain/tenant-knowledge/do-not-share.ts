import type { Entity, EntityType } from '../core/entity';
import { hasControlOrInvisible, normaliseEntity } from '../core/entity-normalisation';
import { ValidationError } from '../core/errors';
import { MAX_REASON_LENGTH } from './allowlist-types';

/**
 * The tenant-wide "do not share" mark (docs/tenant-knowledge.md, issue 36 item 4): an admin's
 * decision that an entity never leaves the tenant. A marked entity is never sent to a third-party
 * source (intel lookups skip it, as for TLP:RED) and API-key graph answers withhold it (a 404 that
 * says withheld); console users still see it. Unlike a session's TLP, which any key sets, only an
 * admin marks, with a reason, audited, and an admin lowers it again (audited too).
 *
 * The value is normalised like an investigated entity, so a mark and a lookup of the same thing
 * always meet.
 */
export interface DoNotShareMark {
  entity_type: EntityType;
  /** Normalised as investigated entities are. */
  value: string;
  reason: string;
  /** `key:<keyId>` or `user:<console username>`. */
  marked_by: string;
  marked_at: string;
}

export interface DoNotShareInput {
  entity_type: EntityType;
  value: string;
  reason: string;
}

function invalid(message: string, path: string): never {
  throw new ValidationError(`Invalid do-not-share mark: ${message}.`, [{ path, message }]);
}

/** The normalised entity of a mark (ValidationError at `value` when it is not an entity of that type). */
export function doNotShareEntity(type: EntityType, value: string): Entity {
  const entity = normaliseEntity({ type, value }, 'value');
  if (entity.type !== type)
    invalid(`"${value}" is an ${entity.type}, not a ${type}; use entity_type ${entity.type}`, 'value');
  return entity;
}

/** The same free-text rule as allowlist reasons: required, no invisible or control characters. */
export function newDoNotShareMark(input: DoNotShareInput, markedBy: string, now: Date): DoNotShareMark {
  const reason = input.reason.trim();
  if (hasControlOrInvisible(reason, { allowLineBreaks: true }))
    invalid('reason contains control or invisible formatting characters', 'reason');
  if (!reason) invalid('reason must say why the entity must not be shared', 'reason');
  if (reason.length > MAX_REASON_LENGTH)
    invalid(`reason must be at most ${MAX_REASON_LENGTH} characters`, 'reason');
  const entity = doNotShareEntity(input.entity_type, input.value);
  return {
    entity_type: entity.type,
    value: entity.value,
    reason,
    marked_by: markedBy,
    marked_at: now.toISOString(),
  };
}

/** The skip reason of an intel lookup of a marked entity. */
export const DO_NOT_SHARE_SKIP =
  'The tenant marks this entity "do not share" (an admin decision); nothing was sent to a third party.';
