import { ipaddr } from '../core/ip-address';
import { isPublicSuffix } from '../core/public-suffix';
import type { IndicatorDetails, IndicatorVia } from '../core/vocabulary';
import { MIN_IPV4_PREFIX, MIN_IPV6_PREFIX } from '../tenant-knowledge/allowlist-types';

export type { IndicatorDetails, IndicatorVia };

/**
 * What a feed's parser yields: one indicator per usable row, in a form the compiled set
 * (compiled-set.ts) stores. Pure; no I/O.
 */

export interface FeedIndicator {
  via: IndicatorVia;
  /** An IP address, a CIDR (`a.b.c.d/n`, IPv6 too), or a lower-case ASCII host name. */
  value: string;
  details?: IndicatorDetails;
  /** Popularity rank (TRANCO). */
  rank?: number;
}

export interface ParsedFeed {
  indicators: FeedIndicator[];
  /** Rows that did not parse (a malformed line, an invalid address). */
  rejected: number;
  /** Valid rows the service does not match on (file hashes, ...). */
  skipped: number;
  /** When the publisher generated the file, if it says. */
  generated_at?: string;
  /** The publisher's copyright or terms line, if the file carries one. */
  notice?: string;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(value: string): boolean {
  return IPV4.test(value);
}

/** An IPv4 or IPv6 address in canonical text, or undefined. */
export function canonicalIp(value: string): string | undefined {
  if (isIpv4(value)) return value;
  if (!value.includes(':')) return undefined;
  try {
    const address = ipaddr().parse(value.replace(/^\[|\]$/g, ''));
    if (address.kind() === 'ipv6') {
      const v6 = address as ReturnType<typeof ipaddr>['IPv6']['prototype'];
      return v6.isIPv4MappedAddress() ? v6.toIPv4Address().toString() : v6.toNormalizedString();
    }
    return address.toString();
  } catch {
    return undefined;
  }
}

/**
 * `a.b.c.d/n` or an IPv6 network, normalised to its network address; undefined when invalid or wider
 * than the allowlist's bound (/8 for IPv4, /32 for IPv6): one feed row must not condemn a large part
 * of the internet (`0.0.0.0/0` would list every address), as one allowlist entry must not vouch for it.
 */
export function canonicalCidr(value: string): string | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) {
    const ip = canonicalIp(value);
    return ip;
  }
  try {
    const [address, bits] = ipaddr().parseCIDR(value);
    const v4 = address.kind() === 'ipv4';
    if (bits < (v4 ? MIN_IPV4_PREFIX : MIN_IPV6_PREFIX) || bits > (v4 ? 32 : 128)) return undefined;
    const network = ipaddr().IPv4.isValid(value.slice(0, slash))
      ? ipaddr().IPv4.networkAddressFromCIDR(value)
      : ipaddr().IPv6.networkAddressFromCIDR(value);
    const text = network.kind() === 'ipv6' ? network.toNormalizedString() : network.toString();
    return `${text}/${bits}`;
  } catch {
    return undefined;
  }
}

const ASCII_HOST =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)+$/;

/**
 * A host a threat feed may list: canonical, and not a public suffix (ICANN or private section:
 * `co.uk`, `github.io`), since a listed domain covers its subdomains and one row would then condemn
 * every site under the suffix. (Tranco's popularity ranks, benign and matched exactly or on the
 * registrable domain, keep suffixes.)
 */
export function listedHost(value: string): string | undefined {
  const host = canonicalHost(value);
  return host && !isPublicSuffix(host) ? host : undefined;
}

/** A host name in lower-case ASCII (IDNs in punycode) with at least two labels, or undefined. */
export function canonicalHost(value: string): string | undefined {
  const lower = value.trim().toLowerCase().replace(/\.$/, '');
  if (ASCII_HOST.test(lower)) return lower;
  // Only a non-ASCII (IDN) name can still become valid, as punycode.
  if (![...lower].some((ch) => ch.charCodeAt(0) > 0x7f)) return undefined;
  try {
    const host = new URL(`http://${lower}/`).hostname;
    return ASCII_HOST.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** The indicator of a listed URL's host: an address or a host name; undefined for a malformed URL. */
export function urlHostIndicator(url: string, details?: IndicatorDetails): FeedIndicator | undefined {
  let host: string;
  try {
    const parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
    host = parsed.hostname;
  } catch {
    return undefined;
  }
  const ip = canonicalIp(host.replace(/^\[|\]$/g, ''));
  if (ip) return { via: 'url_host', value: ip, ...(details ? { details } : {}) };
  const name = listedHost(host);
  return name ? { via: 'url_host', value: name, ...(details ? { details } : {}) } : undefined;
}

/** A publisher's time (`2024-11-27 10:12:05`, epoch seconds, ISO) as ISO 8601 UTC, or undefined. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    return new Date(value * 1000).toISOString();
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text || /^(none|null|n\/a)$/i.test(text)) return undefined;
  const normalised = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(text)
    ? `${text.replace(' ', 'T')}Z`
    : /^\d{4}-\d\d-\d\d$/.test(text)
      ? `${text}T00:00:00Z`
      : text;
  const at = Date.parse(normalised);
  return Number.isNaN(at) ? undefined : new Date(at).toISOString();
}
