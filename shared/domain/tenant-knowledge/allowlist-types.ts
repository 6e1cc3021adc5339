/**
 * The allowlist's vocabulary and limits, without code (the console's form reads them; allowlist.ts
 * validates and matches).
 */
export const ALLOWLIST_TYPES = ['ip', 'cidr', 'domain', 'user', 'host'] as const;
export type AllowlistType = (typeof ALLOWLIST_TYPES)[number];

/** The widest network an entry may cover: /8 for IPv4, /32 for IPv6. */
export const MIN_IPV4_PREFIX = 8;
export const MIN_IPV6_PREFIX = 32;
export const MAX_REASON_LENGTH = 500;
export const MAX_EXPIRY_DAYS = 3650;

export interface AllowlistEntry {
  entry_id: string;
  type: AllowlistType;
  /** Normalised: canonical address, `<network>/<prefix>` with host bits cleared, lower-case names. */
  value: string;
  reason: string;
  /** Who added it: `key:<keyId>` or `user:<console username>`. */
  created_by: string;
  created_at: string;
  /** ISO 8601, or null for an entry that never expires. */
  expires_at: string | null;
}
