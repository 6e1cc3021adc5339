import type { Entity } from '../core/entity';
import { hasControlOrInvisible, normaliseEntity } from '../core/entity-normalisation';
import { ValidationError } from '../core/errors';
import { CRITICALITIES, type Criticality } from '../core/vocabulary';
import { MAX_REASON_LENGTH } from './allowlist-types';
import { CRITICAL_ASSET_TYPES, type CriticalAssetType, MAX_OWNER_LENGTH } from './critical-asset-types';

/**
 * The tenant's critical assets (docs/tenant-knowledge.md, issue 35 item 5): hosts and users an admin
 * declares important, with a criticality, an owner and a reason. An investigation of one names its
 * criticality in a finding, and its recommendations coordinate containment with the owner instead
 * of isolating or disabling it (a domain controller isolated is a domain-wide outage). Admin-managed
 * and audited like the allowlist; the value is normalised like an investigated entity, so an asset
 * and an investigation of the same thing always meet.
 */
export { CRITICALITIES, type Criticality } from '../core/vocabulary';
export { CRITICAL_ASSET_TYPES, type CriticalAssetType, MAX_OWNER_LENGTH } from './critical-asset-types';

export interface CriticalAsset {
  entity_type: CriticalAssetType;
  /** Normalised as investigated entities are. */
  value: string;
  criticality: Criticality;
  /** Who to coordinate containment with: a team, a person, an on-call rota (free text). */
  owner: string;
  reason: string;
  /** `key:<keyId>` or `user:<console username>`. */
  added_by: string;
  added_at: string;
}

export interface CriticalAssetInput {
  entity_type: CriticalAssetType;
  value: string;
  criticality: Criticality;
  owner: string;
  reason: string;
}

function invalid(message: string, path: string): never {
  throw new ValidationError(`Invalid critical asset: ${message}.`, [{ path, message }]);
}

export function isCriticalAssetType(type: string): type is CriticalAssetType {
  return (CRITICAL_ASSET_TYPES as readonly string[]).includes(type);
}

/** The normalised entity of an asset (ValidationError at `value` when it is not an entity of that type). */
export function criticalAssetEntity(type: CriticalAssetType, value: string): Entity {
  const entity = normaliseEntity({ type, value }, 'value');
  if (entity.type !== type)
    invalid(`"${value}" is an ${entity.type}, not a ${type}; use entity_type ${entity.type}`, 'value');
  return entity;
}

/** One line of free text: required, bounded, no control or invisible formatting characters. */
function freeText(raw: string, path: string, max: number, missing: string, lineBreaks: boolean): string {
  const text = raw.trim();
  if (hasControlOrInvisible(text, { allowLineBreaks: lineBreaks }))
    invalid(`${path} contains control or invisible formatting characters`, path);
  if (!text) invalid(missing, path);
  if (text.length > max) invalid(`${path} must be at most ${max} characters`, path);
  return text;
}

/** A new asset; the owner and the reason follow the allowlist reason's hygiene (the owner on one line). */
export function newCriticalAsset(input: CriticalAssetInput, addedBy: string, now: Date): CriticalAsset {
  if (!isCriticalAssetType(input.entity_type)) invalid('entity_type must be host or user', 'entity_type');
  if (!(CRITICALITIES as readonly string[]).includes(input.criticality))
    invalid(`criticality must be one of ${CRITICALITIES.join(', ')}`, 'criticality');
  const owner = freeText(
    input.owner,
    'owner',
    MAX_OWNER_LENGTH,
    'owner must name who to coordinate with',
    false,
  );
  const reason = freeText(
    input.reason,
    'reason',
    MAX_REASON_LENGTH,
    'reason must say why it is critical',
    true,
  );
  const entity = criticalAssetEntity(input.entity_type, input.value);
  return {
    entity_type: entity.type as CriticalAssetType,
    value: entity.value,
    criticality: input.criticality,
    owner,
    reason,
    added_by: addedBy,
    added_at: now.toISOString(),
  };
}
