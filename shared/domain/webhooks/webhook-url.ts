import { ValidationError } from '../core/errors';
import { ipaddr } from '../core/ip-address';
import { MAX_WEBHOOK_URL_LENGTH } from './webhook';

/**
 * Which URLs a webhook may point at, and which addresses a delivery may connect to: the outbound
 * request goes where an admin says, so it must not become a way into the tenant's own network or
 * the platform's metadata service (SSRF). Only `https`, and only public unicast addresses: never
 * private (RFC 1918), loopback, link-local (169.254.0.0/16 holds the instance metadata address),
 * unique-local (fc00::/7), multicast, carrier-grade NAT, documentation or other reserved ranges, nor
 * an IPv4 address hidden in IPv6 (mapped, NAT64, 6to4, Teredo). The check is made on the URL at
 * registration and again on every resolved address at delivery (DNS may change in between).
 *
 * `allowLoopback` (SIS_WEBHOOK_ALLOW_LOOPBACK, local tests only, refused at synth) also admits
 * `http://127.0.0.1` and other loopback addresses, so a test receiver can run on this machine.
 */
export interface WebhookUrlPolicy {
  allowLoopback: boolean;
}

/** Parses and checks the URL's form (not its addresses); ValidationError naming `url` otherwise. */
export function checkedWebhookUrl(text: string, policy: WebhookUrlPolicy): URL {
  const refuse = (message: string) => new ValidationError(message, [{ path: 'url', message }]);
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    throw refuse(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('must be an absolute URL');
  }
  if (url.username || url.password) throw refuse('must not carry a user name or password');
  if (url.protocol === 'http:' && policy.allowLoopback && isLoopbackHost(url.hostname)) return url;
  if (url.protocol !== 'https:') throw refuse('must be an https URL');
  const literal = ipLiteral(url.hostname);
  if (literal && !isDeliverableAddress(literal, policy)) {
    throw refuse('must point at a public address (not private, loopback, link-local or multicast)');
  }
  return url;
}

function isLoopbackHost(hostname: string): boolean {
  const literal = ipLiteral(hostname);
  return literal !== undefined && rangeOf(literal) === 'loopback';
}

/** The host as an IP address when it is one (`[::1]` unbracketed), else undefined. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr().isValid(bare) ? bare : undefined;
}

function rangeOf(address: string): string {
  const lib = ipaddr();
  let parsed = lib.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ReturnType<typeof lib.IPv6.parse>;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range();
}

/**
 * Whether a delivery may connect to this resolved address: ipaddr.js's `unicast` range is what is
 * left after every special-purpose range (RFC 6890) is taken out; loopback only when allowed.
 */
export function isDeliverableAddress(address: string, policy: WebhookUrlPolicy): boolean {
  if (!ipaddr().isValid(address)) return false;
  const range = rangeOf(address);
  return range === 'unicast' || (policy.allowLoopback && range === 'loopback');
}
