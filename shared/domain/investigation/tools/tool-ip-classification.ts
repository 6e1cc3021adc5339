import type { Entity } from '../../core/entity';
import type { Facts, Finding, Tool, ToolOutput, ToolRunContext } from '../../core/vocabulary';
import { type FindingRule, makeFinding } from '../scoring';
import { builtInTool } from './built-in-tool-declarations';
import {
  type IpIntel,
  type NetworkProvider,
  networkProviderOf,
  type OfflineIntel,
  PUBLIC_RESOLVERS,
} from './enrichment';
import { classifyIp, type IpRange } from './ip-ranges';

/**
 * ip_classification: which special-purpose range an address falls in (ip-ranges.ts), what that
 * range means in an investigation, and for a public address its network from the offline data.
 */

const INTERNAL: ReadonlySet<IpRange> = new Set([
  'private',
  'unique_local',
  'loopback',
  'link_local',
  'carrier_grade_nat',
]);

type RangeVerdict = FindingRule;

function assess(range: IpRange, value: string): RangeVerdict {
  switch (range) {
    case 'public':
      return {
        code: 'public_address',
        title: 'Publicly routable address',
        description: `${value} is globally routable.`,
        impact: 'This is an address on the public internet.',
        score: 0,
        category: 'context',
      };
    case 'carrier_grade_nat':
      return {
        code: 'internal_address',
        title: 'Carrier-grade NAT shared address (100.64.0.0/10)',
        description: `${value} is in the RFC 6598 shared space: many subscribers sit behind it, so attribution needs the provider's NAT port logs.`,
        impact:
          'This address is shared by many customers of an internet provider, so it does not identify one device.',
        score: 0,
        category: 'context',
      };
    case 'documentation':
      return {
        code: 'documentation_address',
        title: 'Documentation-only address',
        description: `${value} is reserved for documentation (TEST-NET-1/2/3, 2001:db8::/32, 3fff::/20) and never appears in real traffic: it points to test data, a placeholder left in a configuration, or spoofing.`,
        impact:
          'This address only exists in examples and manuals; seeing it in real activity points to test data or a forged record.',
        score: 15,
        category: 'anomalous_naming',
      };
    case 'benchmarking':
      return {
        code: 'benchmarking_address',
        title: 'Benchmarking-only address',
        description: `${value} is in a range reserved for network benchmarking (198.18.0.0/15, 2001:2::/48); it should not appear in production traffic.`,
        impact: 'This address is reserved for lab testing and should not appear in real activity.',
        score: 15,
        category: 'anomalous_naming',
      };
    case 'reserved':
    case 'unspecified':
    case 'broadcast':
      return {
        code: 'bogon_address',
        title: 'Bogon address (not routable on the internet)',
        description: `${value} is ${range} space. As a traffic source it indicates spoofing or a misconfiguration; it cannot be a genuine internet peer.`,
        impact:
          'This address cannot belong to a real internet device; seeing it suggests forged or broken network traffic.',
        score: 30,
        category: 'suspicious_infrastructure',
      };
    case 'multicast':
      return {
        code: 'multicast_address',
        title: 'Multicast group address',
        description: `${value} is a multicast group, not a single host; it cannot be the source of a unicast connection.`,
        impact: 'This address names a group of devices rather than one machine.',
        score: 0,
        category: 'context',
      };
    case 'teredo':
    case '6to4':
      return {
        code: 'tunnel_address',
        title: `IPv6 transition tunnel (${range})`,
        description: `${value} is a ${range} tunnel address. Tunnelled IPv6 can bypass IPv4-only firewalls and monitoring; legitimate use in enterprises is rare today.`,
        impact:
          'This connection uses a tunnelling technique that can slip past standard network security controls.',
        score: 20,
        category: 'network_exposure',
        attack: ['T1572'],
      };
    case 'nat64':
      return {
        code: 'nat64_address',
        title: 'NAT64 translated address',
        description: `${value} is an IPv4 peer seen through a NAT64 gateway (64:ff9b::/96); investigate the embedded IPv4 address.`,
        impact: 'This address is a translated form of another address.',
        score: 0,
        category: 'context',
      };
    default:
      return {
        code: 'internal_address',
        title: `Internal address (${range.replace('_', ' ')})`,
        description: `${value} is ${range.replace('_', '-')} space: it identifies a device inside a network. Pivot to DHCP leases and asset records to find the host that held it.`,
        impact: 'This is an internal address of a device inside a private network.',
        score: 0,
        category: 'context',
      };
  }
}

/** Ranges whose addresses are looked up in the offline ASN and country data. */
const LOOKED_UP: ReadonlySet<IpRange> = new Set(['public', 'teredo', '6to4']);

const NETWORK_WORDS: Record<NetworkProvider['class'], string> = {
  cloud: 'a cloud provider (any customer workload can originate here)',
  cdn: 'a content-delivery network (many unrelated sites share its addresses)',
  hosting:
    'a VPS or dedicated-server hosting provider (cheap, quickly rented infrastructure often used by attackers)',
  isp: 'an internet access provider (subscriber traffic)',
};

interface Network {
  intel: IpIntel;
  provider?: NetworkProvider;
  dataDate: string;
}

function lookUp(value: string, range: IpRange, offline: OfflineIntel | undefined): Network | undefined {
  if (!offline || !LOOKED_UP.has(range)) return undefined;
  const intel = offline.ip(value);
  return { intel, provider: networkProviderOf(intel.asn), dataDate: offline.ipDataDate };
}

function networkText(network: Network): string {
  const { intel, provider, dataDate } = network;
  const as =
    intel.asn === null
      ? 'no announcing AS in the offline data'
      : `AS${intel.asn} (${intel.as_org ?? 'organisation unknown'})`;
  const country = intel.country ? `, registered in ${intel.country}` : '';
  const kind = provider ? `; the network is ${NETWORK_WORDS[provider.class]}, ${provider.provider}` : '';
  return `${as}${country}${kind} (offline data of ${dataDate})`;
}

function networkFacts(network: Network | undefined): Facts {
  if (!network) return {};
  return {
    asn: network.intel.asn,
    as_org: network.intel.as_org,
    country: network.intel.country,
    network_class: network.provider?.class ?? 'unknown',
    network_provider: network.provider?.provider ?? null,
    ip_data_date: network.dataDate,
  };
}

/** A hosting network is a weak signal of its own: attackers rent VPSes there by the hour. */
function hostingFinding(value: string, network: Network | undefined): Finding[] {
  if (network?.provider?.class !== 'hosting') return [];
  return [
    makeFinding({
      tool: 'ip_classification',
      code: 'hosting_network',
      title: `Address in a hosting network (${network.provider.provider})`,
      description: `${value} is announced by ${networkText(network)}. Logons and connections from rented servers are unusual for employees and customers; check whether the organisation uses this provider.`,
      impact: 'The address belongs to a rented-server provider rather than an office or home connection.',
      score: 10,
      category: 'suspicious_infrastructure',
      evidence: [`AS${network.intel.asn}`],
    }),
  ];
}

/**
 * Positive evidence of a legitimate owner (types.ts Finding.benign): a public resolver's service
 * address, or an address of a content-delivery network by its ASN. Weak on its own: it makes a
 * report benign only when nothing found raises the risk to suspicious (verdict.ts).
 */
function legitimateOwnerFinding(value: string, network: Network | undefined): Finding[] {
  const resolver = PUBLIC_RESOLVERS[value];
  if (resolver) {
    return [
      makeFinding({
        tool: 'ip_classification',
        code: 'public_resolver',
        title: `Public DNS resolver (${resolver})`,
        description: `${value} is a published service address of ${resolver}, a public DNS resolver: traffic to it is everyday name resolution. It says nothing about what was resolved through it.`,
        impact: `This is the well-known address of ${resolver}, a public service used by millions of devices.`,
        score: 0,
        category: 'context',
        evidence: [`${value} = ${resolver}`],
        benign: true,
        evidence_source: 'offline:resolvers',
      }),
    ];
  }
  if (network?.provider?.class !== 'cdn') return [];
  return [
    makeFinding({
      tool: 'ip_classification',
      code: 'cdn_network',
      title: `Address of a content-delivery network (${network.provider.provider})`,
      description: `${value} is announced by ${networkText(network)}. The network's owner is a large, accountable provider; many unrelated sites share its addresses, so a site behind it is not vouched for.`,
      impact: `The address belongs to ${network.provider.provider}, a large legitimate network provider.`,
      score: 0,
      category: 'context',
      evidence: [`AS${network.intel.asn}`],
      benign: true,
      evidence_source: 'offline:asn',
    }),
  ];
}

export const ipClassification: Tool = {
  ...builtInTool('ip_classification'),
  async run(entity: Entity, ctx?: ToolRunContext): Promise<ToolOutput> {
    const { version, range } = classifyIp(entity.value);
    const verdict = assess(range, entity.value);
    const network = lookUp(entity.value, range, ctx?.offline);
    const facts = networkFacts(network);
    if (network) verdict.description = `${verdict.description} Announced by ${networkText(network)}.`;
    else if (range === 'public')
      verdict.description = `${verdict.description} No offline network data was available for it.`;
    return {
      ...(network
        ? {
            attributes: {
              asn: network.intel.asn,
              as_org: network.intel.as_org,
              country: network.intel.country,
              network_class: network.provider?.class ?? 'unknown',
              ...(network.provider ? { network_provider: network.provider.provider } : {}),
            },
          }
        : {}),
      facts: {
        version,
        range,
        internal: INTERNAL.has(range),
        globally_routable: range === 'public' || range === 'teredo' || range === '6to4' || range === 'nat64',
        // No reverse_pointer: the tool resolves no PTR record (it runs offline), and the in-addr.arpa
        // name alone only repeats the queried address (issue 35 text defects).
        ...facts,
      },
      findings: [
        makeFinding({
          tool: 'ip_classification',
          code: verdict.code,
          title: verdict.title,
          description: verdict.description,
          impact: verdict.impact,
          score: verdict.score,
          category: verdict.category,
          evidence: [`${entity.value} ∈ ${range}`, ...(network?.intel.asn ? [`AS${network.intel.asn}`] : [])],
          attack: verdict.attack,
        }),
        ...hostingFinding(entity.value, network),
        ...legitimateOwnerFinding(entity.value, network),
      ],
      related: [],
    };
  },
};
