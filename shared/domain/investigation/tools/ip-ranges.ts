import type * as IpAddr from 'ipaddr.js';
import { ipaddr } from '../../core/ip-address';

/**
 * Which special-purpose range an address falls in (IANA special-purpose registries): ip_classification's
 * verdicts (tool-ip-classification.ts) and the connector tools' gate (a non-public address is never
 * sent out, tool-intel.ts) both read it, so it is its own module and run-intel carries no
 * ip_classification. Documentation ranges are separated from other reserved space because ipaddr.js
 * folds them into "reserved", and they mean something different in an investigation: test data or
 * a placeholder leaking into real telemetry, rather than a bogon.
 */
export type IpRange =
  | 'public'
  | 'private'
  | 'unique_local'
  | 'loopback'
  | 'link_local'
  | 'carrier_grade_nat'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'unspecified'
  | 'reserved'
  | 'teredo'
  | '6to4'
  | 'nat64';

const V4_RANGES: readonly [IpRange, string][] = [
  ['unspecified', '0.0.0.0/8'],
  ['private', '10.0.0.0/8'],
  ['carrier_grade_nat', '100.64.0.0/10'],
  ['loopback', '127.0.0.0/8'],
  ['link_local', '169.254.0.0/16'],
  ['private', '172.16.0.0/12'],
  ['reserved', '192.0.0.0/24'],
  ['documentation', '192.0.2.0/24'],
  ['reserved', '192.88.99.0/24'],
  ['private', '192.168.0.0/16'],
  ['benchmarking', '198.18.0.0/15'],
  ['documentation', '198.51.100.0/24'],
  ['documentation', '203.0.113.0/24'],
  ['multicast', '224.0.0.0/4'],
  ['broadcast', '255.255.255.255/32'],
  ['reserved', '240.0.0.0/4'],
];

const V6_RANGES: readonly [IpRange, string][] = [
  ['unspecified', '::/128'],
  ['loopback', '::1/128'],
  ['nat64', '64:ff9b::/96'],
  ['nat64', '64:ff9b:1::/48'],
  ['reserved', '100::/64'],
  ['benchmarking', '2001:2::/48'],
  ['teredo', '2001::/32'],
  ['reserved', '2001::/23'],
  ['documentation', '2001:db8::/32'],
  ['6to4', '2002::/16'],
  ['documentation', '3fff::/20'],
  ['unique_local', 'fc00::/7'],
  ['link_local', 'fe80::/10'],
  ['reserved', 'fec0::/10'],
  ['multicast', 'ff00::/8'],
  ['public', '2000::/3'],
];

type ParsedRange = [IpRange, IpAddr.IPv4 | IpAddr.IPv6, number];
const parseRanges = (ranges: readonly [IpRange, string][]): ParsedRange[] =>
  ranges.map(([name, cidr]) => {
    const [address, bits] = ipaddr().parseCIDR(cidr);
    return [name, address, bits];
  });
// Parsed on the first classification: most functions import this module but never classify an IP.
let parsed: { v4: ParsedRange[]; v6: ParsedRange[] } | undefined;
const parsedRanges = () => {
  parsed ??= { v4: parseRanges(V4_RANGES), v6: parseRanges(V6_RANGES) };
  return parsed;
};

/** First matching range wins, so more specific ranges are listed before the ones containing them. */
export function classifyIp(value: string): { version: 4 | 6; range: IpRange } {
  const address = ipaddr().parse(value);
  if (address.kind() === 'ipv4') {
    const match = parsedRanges().v4.find(
      ([, net, bits]) => net.kind() === 'ipv4' && address.match(net, bits),
    );
    return { version: 4, range: match?.[0] ?? 'public' };
  }
  const match = parsedRanges().v6.find(([, net, bits]) => net.kind() === 'ipv6' && address.match(net, bits));
  // Outside 2000::/3 and the listed ranges is unallocated space: a bogon.
  return { version: 6, range: match?.[0] ?? 'reserved' };
}
