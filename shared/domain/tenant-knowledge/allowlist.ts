import { createHash } from 'node:crypto';
import type { Entity } from '../core/entity';
import { canonicalIp, hasControlOrInvisible, normaliseEntity } from '../core/entity-normalisation';
import { ValidationError } from '../core/errors';
import { ipaddr } from '../core/ip-address';
import { isPublicSuffix } from '../core/public-suffix';
import type { AllowlistMatch } from '../core/vocabulary';
import {
  type AllowlistEntry,
  type AllowlistType,
  MAX_EXPIRY_DAYS,
  MAX_REASON_LENGTH,
  MIN_IPV4_PREFIX,
  MIN_IPV6_PREFIX,
} from './allowlist-types';

/**
 * The tenant's allowlist (docs/tenant-knowledge.md): entities the tenant knows to be legitimate. An
 * entry sets the verdict of a later investigation to benign with a finding quoting it; it hides no
 * evidence (the entity's other findings stay in the report).
 *
 * Types: `ip` (one address), `cidr` (a network; at most /8 wide for IPv4 and /32 for IPv6, so one
 * entry cannot vouch for a large part of the internet), `domain` (the domain and all its
 * subdomains), `user`, `host`. Values are normalised like investigated entities, so an entry and an
 * investigation of the same thing always meet. The entry ID is derived from the type and normalised
 * value, so the same entity cannot be listed twice (409).
 */
export {
  ALLOWLIST_TYPES,
  type AllowlistEntry,
  type AllowlistType,
  MAX_EXPIRY_DAYS,
  MAX_REASON_LENGTH,
  MIN_IPV4_PREFIX,
  MIN_IPV6_PREFIX,
} from './allowlist-types';

export interface AllowlistInput {
  type: AllowlistType;
  value: string;
  reason: string;
  expires_in_days?: number | undefined;
}

function invalid(message: string, path = 'value'): never {
  throw new ValidationError(`Invalid allowlist entry: ${message}.`, [{ path, message }]);
}

/** `<network>/<prefix>` with the host bits cleared; refuses ranges wider than /8 (IPv4) or /32 (IPv6). */
export function normaliseCidr(value: string): string {
  const { parseCIDR, IPv4, IPv6 } = ipaddr();
  let parsed: ReturnType<typeof parseCIDR>;
  try {
    parsed = parseCIDR(value.trim());
  } catch {
    return invalid(`"${value}" is not a CIDR range such as 198.51.100.0/24 or 2001:db8::/48`);
  }
  let [address, prefix] = parsed;
  // An IPv4-mapped network (::ffff:a.b.c.d/n, n >= 96) is the IPv4 network a.b.c.d/(n-96), which is
  // what investigated addresses are normalised to; kept as IPv6 it would match nothing.
  if (
    address.kind() === 'ipv6' &&
    prefix >= 96 &&
    (address as InstanceType<typeof IPv6>).isIPv4MappedAddress()
  ) {
    address = (address as InstanceType<typeof IPv6>).toIPv4Address();
    prefix -= 96;
  }
  const v4 = address.kind() === 'ipv4';
  const min = v4 ? MIN_IPV4_PREFIX : MIN_IPV6_PREFIX;
  if (prefix < min) {
    invalid(
      `/${prefix} is wider than /${min}: an ${v4 ? 'IPv4' : 'IPv6'} entry may cover at most a /${min} (${v4 ? '16.7 million addresses' : 'a whole regional allocation'}); list the networks the tenant really trusts`,
    );
  }
  const network = v4
    ? IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
    : IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
  const canonical = canonicalIp(network.toString()) ?? network.toString();
  return `${canonical}/${prefix}`;
}

/** The normalised value of an entry of this type (ValidationError at `value` when it is not one). */
export function normaliseAllowlistValue(type: AllowlistType, value: string): string {
  if (type === 'cidr') return normaliseCidr(value);
  try {
    const entity = normaliseEntity({ type, value }, 'entity');
    if (entity.type !== type)
      invalid(`"${value}" is an ${entity.type}, not a ${type}; use type ${entity.type}`);
    // The private section too (github.io, s3.amazonaws.com): anyone can publish under it.
    if (type === 'domain' && isPublicSuffix(entity.value))
      invalid(
        `"${entity.value}" is a public suffix (shared hosting or a registry), not a domain one party controls`,
      );
    return entity.value;
  } catch (error) {
    if (error instanceof ValidationError && !error.message.startsWith('Invalid allowlist entry')) {
      invalid(error.details?.[0]?.message ?? error.message);
    }
    throw error;
  }
}

/** Deterministic: the same normalised type and value always give the same ID. */
export function allowlistEntryId(type: AllowlistType, value: string): string {
  return `al_${createHash('sha256').update(`${type}\u0000${value}`).digest('hex').slice(0, 24)}`;
}

export function newAllowlistEntry(input: AllowlistInput, createdBy: string, now: Date): AllowlistEntry {
  const reason = input.reason.trim();
  if (hasControlOrInvisible(reason, { allowLineBreaks: true }))
    invalid('reason contains control or invisible formatting characters', 'reason');
  if (!reason) invalid('reason must say why the entity is trusted', 'reason');
  if (reason.length > MAX_REASON_LENGTH)
    invalid(`reason must be at most ${MAX_REASON_LENGTH} characters`, 'reason');
  const value = normaliseAllowlistValue(input.type, input.value);
  const days = input.expires_in_days;
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRY_DAYS)) {
    invalid(`expires_in_days must be a whole number from 1 to ${MAX_EXPIRY_DAYS}`, 'expires_in_days');
  }
  return {
    entry_id: allowlistEntryId(input.type, value),
    type: input.type,
    value,
    reason,
    created_by: createdBy,
    created_at: now.toISOString(),
    expires_at: days === undefined ? null : new Date(now.getTime() + days * 86_400_000).toISOString(),
  };
}

export function isExpired(entry: Pick<AllowlistEntry, 'expires_at'>, now: Date): boolean {
  return (
    entry.expires_at !== null &&
    entry.expires_at !== undefined &&
    Date.parse(entry.expires_at) <= now.getTime()
  );
}

function inCidr(address: string, cidr: string): boolean {
  const { parse, parseCIDR } = ipaddr();
  try {
    const ip = parse(address);
    const range = parseCIDR(cidr);
    return ip.kind() === range[0].kind() && ip.match(range);
  } catch {
    return false;
  }
}

/** Whether the entry covers the (normalised) entity. */
export function covers(entry: Pick<AllowlistEntry, 'type' | 'value'>, entity: Entity): boolean {
  switch (entry.type) {
    case 'ip':
      return entity.type === 'ip' && entity.value === entry.value;
    case 'cidr':
      return entity.type === 'ip' && inCidr(entity.value, entry.value);
    case 'domain':
      return (
        entity.type === 'domain' && (entity.value === entry.value || entity.value.endsWith(`.${entry.value}`))
      );
    case 'user':
    case 'host':
      return entity.type === entry.type && entity.value === entry.value;
  }
}

/**
 * The unexpired entries covering the entity, most specific first (an exact entry before a network or
 * a parent domain; a longer prefix or a longer domain before a shorter one).
 */
export function matchingEntries(
  entries: readonly AllowlistEntry[],
  entity: Entity,
  now: Date,
): AllowlistMatch[] {
  const specificity = (e: AllowlistEntry) =>
    e.type === 'cidr' ? Number(e.value.split('/')[1]) : e.type === 'domain' ? e.value.length : 1000;
  return entries
    .filter((entry) => !isExpired(entry, now) && covers(entry, entity))
    .sort((a, b) => specificity(b) - specificity(a) || a.entry_id.localeCompare(b.entry_id))
    .map((e) => ({
      entry_id: e.entry_id,
      type: e.type,
      value: e.value,
      reason: e.reason,
      created_by: e.created_by,
      created_at: e.created_at,
      expires_at: e.expires_at,
    }));
}
