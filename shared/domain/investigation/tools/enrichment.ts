export type { IpIntel, MailDomainIntel, OfflineDataSource, OfflineIntel } from '../../core/vocabulary';
/**
 * Offline enrichment: what the service knows about an address or a mail domain without calling
 * anybody. The data (IP → ASN/organisation/country, disposable and free-mail domain lists) is read
 * by shared/platform/offline-intel.ts from files shipped with the run-tool function; this module
 * only defines the port the tools use and the pure judgements made from its answers.
 */

// ---- Network classification from the ASN ----

export type NetworkClass = 'cloud' | 'hosting' | 'cdn' | 'isp';

export interface NetworkProvider {
  provider: string;
  class: NetworkClass;
  /** A word the AS organisation name in the shipped data contains (checked by a unit test). */
  orgContains: string;
}

/**
 * Major cloud, CDN, hosting and access networks by their main ASNs, curated by hand from the
 * networks' own registrations (each ASN's organisation name in the shipped RouteViews/DB-IP data is
 * checked against `orgContains` by a unit test, so a wrong number fails the build). Not exhaustive:
 * an ASN not listed is `unknown`, never guessed from the organisation name. `cloud` means a
 * provider that rents compute (where any customer's workload can originate), `hosting` a VPS or
 * dedicated-server host (cheap, anonymous, popular for attack infrastructure), `cdn` an edge network
 * (many unrelated sites share an address), `isp` an access network of subscribers.
 */
export const NETWORK_PROVIDERS: Readonly<Record<number, NetworkProvider>> = {
  16509: { provider: 'Amazon Web Services', class: 'cloud', orgContains: 'amazon' },
  14618: { provider: 'Amazon Web Services', class: 'cloud', orgContains: 'amazon' },
  15169: { provider: 'Google', class: 'cloud', orgContains: 'google' },
  396982: { provider: 'Google Cloud', class: 'cloud', orgContains: 'google' },
  8075: { provider: 'Microsoft', class: 'cloud', orgContains: 'microsoft' },
  31898: { provider: 'Oracle Cloud', class: 'cloud', orgContains: 'oracle' },
  36351: { provider: 'IBM Cloud', class: 'cloud', orgContains: 'ibm' },
  45102: { provider: 'Alibaba Cloud', class: 'cloud', orgContains: 'alibaba' },
  132203: { provider: 'Tencent Cloud', class: 'cloud', orgContains: 'tencent' },
  13335: { provider: 'Cloudflare', class: 'cdn', orgContains: 'cloudflare' },
  20940: { provider: 'Akamai', class: 'cdn', orgContains: 'akamai' },
  54113: { provider: 'Fastly', class: 'cdn', orgContains: 'fastly' },
  14061: { provider: 'DigitalOcean', class: 'hosting', orgContains: 'digitalocean' },
  63949: { provider: 'Linode (Akamai)', class: 'hosting', orgContains: 'akamai' },
  20473: { provider: 'Vultr (The Constant Company)', class: 'hosting', orgContains: 'constant' },
  16276: { provider: 'OVHcloud', class: 'hosting', orgContains: 'ovh' },
  24940: { provider: 'Hetzner', class: 'hosting', orgContains: 'hetzner' },
  51167: { provider: 'Contabo', class: 'hosting', orgContains: 'contabo' },
  12876: { provider: 'Scaleway', class: 'hosting', orgContains: 'scaleway' },
  60781: { provider: 'Leaseweb', class: 'hosting', orgContains: 'leaseweb' },
  9009: { provider: 'M247', class: 'hosting', orgContains: 'm247' },
  47583: { provider: 'Hostinger', class: 'hosting', orgContains: 'hostinger' },
  7922: { provider: 'Comcast', class: 'isp', orgContains: 'comcast' },
  7018: { provider: 'AT&T', class: 'isp', orgContains: 'at&t' },
  701: { provider: 'Verizon', class: 'isp', orgContains: 'verizon' },
  3320: { provider: 'Deutsche Telekom', class: 'isp', orgContains: 'telekom' },
  3215: { provider: 'Orange', class: 'isp', orgContains: 'orange' },
  2856: { provider: 'BT', class: 'isp', orgContains: 'british' },
};

/**
 * Public DNS resolvers by their anycast service addresses, as their operators publish them (Google
 * Public DNS, Cloudflare 1.1.1.1, Quad9, Cisco OpenDNS; developers.google.com/speed/public-dns,
 * one.one.one.one, quad9.net/service/service-addresses-and-features, opendns.com): a connection to
 * one is everyday DNS traffic, positive evidence of a legitimate owner for the ip_classification tool.
 */
export const PUBLIC_RESOLVERS: Readonly<Record<string, string>> = {
  '8.8.8.8': 'Google Public DNS',
  '8.8.4.4': 'Google Public DNS',
  '2001:4860:4860::8888': 'Google Public DNS',
  '2001:4860:4860::8844': 'Google Public DNS',
  '1.1.1.1': 'Cloudflare DNS',
  '1.0.0.1': 'Cloudflare DNS',
  '2606:4700:4700::1111': 'Cloudflare DNS',
  '2606:4700:4700::1001': 'Cloudflare DNS',
  '9.9.9.9': 'Quad9',
  '149.112.112.112': 'Quad9',
  '2620:fe::fe': 'Quad9',
  '2620:fe::9': 'Quad9',
  '208.67.222.222': 'Cisco OpenDNS',
  '208.67.220.220': 'Cisco OpenDNS',
  '2620:119:35::35': 'Cisco OpenDNS',
  '2620:119:53::53': 'Cisco OpenDNS',
};

export function networkProviderOf(asn: number | null | undefined): NetworkProvider | undefined {
  return asn === null || asn === undefined ? undefined : NETWORK_PROVIDERS[asn];
}

// ---- Mail domains ----

/** The domain part of an e-mail-style user (`alice@mail.example` → `mail.example`), if there is one. */
export function mailDomainOf(user: string): string | undefined {
  const at = user.lastIndexOf('@');
  if (at <= 0 || at === user.length - 1) return undefined;
  const domain = user
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  return /^[a-z0-9.-]+\.[a-z0-9-]{2,}$/.test(domain) ? domain : undefined;
}

/** The domain and each parent above the top label (`a.b.example.com` → itself, `b.example.com`, `example.com`). */
export function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}
