import { domainToUnicode } from 'node:url';

/**
 * Security entities as the service stores and shows them: the four types, the one canonical value
 * of each, keys, labels and the parts of a user name. Pure and free of packages, so types and
 * formatting are importable anywhere (the poll, the lists, the stores) without the parsers.
 * Turning input into a canonical entity, and describing a domain by its public suffix, is
 * entity-normalisation.ts: only the code that parses or classifies entities imports it.
 */
export const ENTITY_TYPES = ['ip', 'user', 'host', 'domain'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface Entity {
  type: EntityType;
  value: string;
}

export type EntityInput = string | { type?: string | null; value: unknown };

export const MAX_ENTITY_VALUE_LENGTH = 256;

export type UserForm = 'upn' | 'down_level' | 'bare';
export type HostForm = 'fqdn' | 'short';

export interface UserName {
  form: UserForm;
  /** The logon name without its domain: `alice` for all of `alice@corp.example`, `corp\alice`, `alice`. */
  name: string;
  /** `corp.example` for a UPN, `corp` for a down-level name. */
  domain?: string;
}

export type EntityDescription =
  | { type: 'ip'; version: 4 | 6 }
  | {
      type: 'domain';
      registrable_domain: string;
      public_suffix: string;
      /** Labels left of the registrable domain, e.g. `a.b` for `a.b.example.com`. */
      subdomain: string;
      unicode: string;
      is_idn: boolean;
    }
  | { type: 'host'; form: HostForm; short_name: string; unicode: string }
  | ({ type: 'user' } & UserName);

export function isEntityType(value: unknown): value is EntityType {
  return typeof value === 'string' && (ENTITY_TYPES as readonly string[]).includes(value);
}

export function entityKey(entity: Entity): string {
  return `${entity.type}:${entity.value}`;
}

export function sameEntity(a: Entity, b: Entity): boolean {
  return a.type === b.type && a.value === b.value;
}

/** Splits a normalised user value into its form, logon name and domain. */
export function parseUser(value: string): UserName {
  const backslash = value.indexOf('\\');
  if (backslash >= 0) {
    return { form: 'down_level', name: value.slice(backslash + 1), domain: value.slice(0, backslash) };
  }
  const at = value.lastIndexOf('@');
  if (at >= 0) return { form: 'upn', name: value.slice(0, at), domain: value.slice(at + 1) };
  return { form: 'bare', name: value };
}

export const TYPE_LABELS: Readonly<Record<EntityType, string>> = {
  ip: 'IP address',
  user: 'user',
  host: 'host',
  domain: 'domain',
};

/** "IP address 203.0.113.7", "user corp\alice": for messages and summaries. */
export function entityLabel(entity: Entity): string {
  return `${TYPE_LABELS[entity.type]} ${entity.value}`;
}

/** The Unicode spelling of a normalised (punycode) domain or host name, for people to read. */
export function unicodeName(value: string): string {
  return domainToUnicode(value) || value;
}
