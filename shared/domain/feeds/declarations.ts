import type { AttackTechniqueId } from '../core/attack';
import type { FindingCategory } from '../core/vocabulary';

/**
 * The public threat feeds (docs/feeds.md): one declaration per feed, from which the configuration
 * (SIS_FEED_<NAME>_URL / _ENABLED), the CDK settings and schedules, the refresh service, the admin
 * list and the `feeds` investigation tool are all derived. Each feed is downloaded in bulk by a
 * scheduled refresh and matched inside the tenant: an investigation never sends anything to a feed.
 */

export const FEED_NAMES = [
  'SPAMHAUS_DROP',
  'FEODO',
  'URLHAUS',
  'THREATFOX',
  'OPENPHISH',
  'TOR_EXITS',
  'CINS',
  'ET_COMPROMISED',
  'TRANCO',
] as const;
export type FeedName = (typeof FEED_NAMES)[number];

export function isFeedName(value: string): value is FeedName {
  return (FEED_NAMES as readonly string[]).includes(value);
}

/** The documented formats the parsers read (parsers.ts). */
export type FeedFormat =
  | 'spamhaus_drop'
  | 'feodo'
  | 'urlhaus_csv'
  | 'threatfox'
  | 'url_lines'
  | 'ip_lines'
  | 'tranco';

/** What a match in the feed means, as the investigation's finding says it. */
export interface FeedMeaning {
  /** "botnet command-and-control server", "Tor exit relay"... */
  label: string;
  description: string;
  /** The same in plain business language (the CISO persona). */
  impact: string;
  /** Contribution of an exact match to the risk score (0 for a popularity signal). */
  score: number;
  category: FindingCategory;
  attack: readonly AttackTechniqueId[];
}

export interface FeedTerms {
  /** One line: who may use the data and how. */
  summary: string;
  url: string;
  /** The attribution the publisher asks for, when it asks for one. */
  attribution?: string;
  /** Whether the terms allow a business's internal security use, which decides the default. */
  allowsInternalBusinessUse: boolean;
}

export interface FeedDeclaration {
  name: FeedName;
  title: string;
  publisher: string;
  /** Default source URLs (SIS_FEED_<NAME>_URL replaces them; several are separated by spaces). */
  urls: readonly string[];
  format: FeedFormat;
  /** The entity types a match can concern. */
  entityTypes: readonly ('ip' | 'domain')[];
  /** `harm`: listed means evidence of harm; `popularity`: positive evidence of benignness. */
  kind: 'harm' | 'popularity';
  /** How often the scheduled refresh downloads it; older than three periods is stale. */
  refreshMinutes: number;
  /** The publisher's minimum interval between downloads; a scheduled refresh never goes below it. */
  minIntervalMinutes: number;
  meaning: FeedMeaning;
  /**
   * abuse.ch downloads carry the tenant's free Auth-Key, taken from the intelligence connector of
   * that name (SIS_INTEL_<CONNECTOR>_API_KEY, or the tenant's intel secret), as the `auth-key` URL
   * parameter. `required`: without a key the feed is not fetched.
   */
  key?: { connector: 'urlhaus' | 'threatfox'; required: boolean };
  /** Enabled in a deployment unless the tenant's settings say otherwise (infra/settings.ts). */
  enabledByDefault: boolean;
  /** Largest download accepted (bytes); beyond it the download is cut and the feed keeps its last copy. */
  maxBytes: number;
  terms: FeedTerms;
}

const MB = 1024 * 1024;

export const FEEDS: Readonly<Record<FeedName, FeedDeclaration>> = {
  SPAMHAUS_DROP: {
    name: 'SPAMHAUS_DROP',
    title: 'Spamhaus DROP (Do not Route Or Peer)',
    publisher: 'The Spamhaus Project',
    urls: ['https://www.spamhaus.org/drop/drop_v4.json', 'https://www.spamhaus.org/drop/drop_v6.json'],
    format: 'spamhaus_drop',
    entityTypes: ['ip'],
    kind: 'harm',
    refreshMinutes: 720,
    minIntervalMinutes: 60,
    meaning: {
      label: 'hijacked or criminal-operated netblock',
      description:
        'Spamhaus DROP lists netblocks hijacked or leased by professional spam or cybercrime operations; Spamhaus advises dropping all traffic to and from them.',
      impact:
        'The address belongs to a network block run by criminals; no legitimate traffic is expected from it.',
      score: 75,
      category: 'suspicious_infrastructure',
      attack: ['T1583'],
    },
    enabledByDefault: true,
    maxBytes: 16 * MB,
    terms: {
      summary:
        'Free for any use, including commercial, as published on the DROP page; each file carries its copyright and terms in its metadata line.',
      url: 'https://www.spamhaus.org/drop/',
      allowsInternalBusinessUse: true,
    },
  },
  FEODO: {
    name: 'FEODO',
    title: 'abuse.ch Feodo Tracker botnet C2 IP blocklist',
    publisher: 'abuse.ch',
    urls: ['https://feodotracker.abuse.ch/downloads/ipblocklist.json'],
    format: 'feodo',
    entityTypes: ['ip'],
    kind: 'harm',
    refreshMinutes: 60,
    minIntervalMinutes: 5,
    meaning: {
      label: 'botnet command-and-control server',
      description:
        'Feodo Tracker lists servers seen acting as command-and-control for botnets (Emotet, Dridex, QakBot, Pikabot...).',
      impact:
        'The address controls infected computers; any of your systems talking to it is probably infected.',
      score: 85,
      category: 'suspicious_infrastructure',
      attack: ['T1071', 'T1071.001'],
    },
    key: { connector: 'urlhaus', required: false },
    enabledByDefault: true,
    maxBytes: 16 * MB,
    terms: {
      summary:
        'abuse.ch community data, free under its fair-use terms; commercial or for-profit use may require an abuse.ch commercial subscription.',
      url: 'https://abuse.ch/terms-of-use/',
      allowsInternalBusinessUse: true,
    },
  },
  URLHAUS: {
    name: 'URLHAUS',
    title: 'abuse.ch URLhaus malware URLs (recent)',
    publisher: 'abuse.ch',
    urls: ['https://urlhaus-api.abuse.ch/files/exports/recent.csv'],
    format: 'urlhaus_csv',
    entityTypes: ['ip', 'domain'],
    kind: 'harm',
    refreshMinutes: 60,
    minIntervalMinutes: 5,
    meaning: {
      label: 'host of a malware-distribution URL',
      description:
        'URLhaus lists URLs distributing malware; a listed host served at least one of them (on shared hosting the rest of the host may be innocent).',
      impact: 'Malware has been downloaded from this site.',
      score: 70,
      category: 'suspicious_infrastructure',
      attack: ['T1105', 'T1204.002'],
    },
    key: { connector: 'urlhaus', required: true },
    enabledByDefault: false,
    maxBytes: 64 * MB,
    terms: {
      summary:
        'abuse.ch community data, free under its fair-use terms with a free Auth-Key; commercial or for-profit use may require an abuse.ch commercial subscription.',
      url: 'https://abuse.ch/terms-of-use/',
      allowsInternalBusinessUse: true,
    },
  },
  THREATFOX: {
    name: 'THREATFOX',
    title: 'abuse.ch ThreatFox IOCs (recent)',
    publisher: 'abuse.ch',
    urls: ['https://threatfox-api.abuse.ch/files/exports/recent.csv'],
    format: 'threatfox',
    entityTypes: ['ip', 'domain'],
    kind: 'harm',
    refreshMinutes: 60,
    minIntervalMinutes: 5,
    meaning: {
      label: 'indicator of compromise',
      description:
        'ThreatFox lists indicators of compromise (C2 servers, payload delivery hosts) shared by the community.',
      impact: 'This address or name is known to be used by malware.',
      score: 75,
      category: 'suspicious_infrastructure',
      attack: ['T1071'],
    },
    key: { connector: 'threatfox', required: true },
    enabledByDefault: false,
    maxBytes: 64 * MB,
    terms: {
      summary:
        'abuse.ch community data, free under its fair-use terms with a free Auth-Key; commercial or for-profit use may require an abuse.ch commercial subscription.',
      url: 'https://abuse.ch/terms-of-use/',
      allowsInternalBusinessUse: true,
    },
  },
  OPENPHISH: {
    name: 'OPENPHISH',
    title: 'OpenPhish community feed',
    publisher: 'OpenPhish',
    urls: ['https://openphish.com/feed.txt'],
    format: 'url_lines',
    entityTypes: ['ip', 'domain'],
    kind: 'harm',
    refreshMinutes: 360,
    minIntervalMinutes: 60,
    meaning: {
      label: 'host of a live phishing URL',
      description:
        'OpenPhish lists live phishing URLs found by its detection algorithms; a listed host served at least one.',
      impact: 'This site has been used to steal passwords or payment details.',
      score: 70,
      category: 'impersonation',
      attack: ['T1566', 'T1598'],
    },
    enabledByDefault: true,
    maxBytes: 16 * MB,
    terms: {
      summary:
        'Non-commercial and internal business purposes only; any other commercial use needs OpenPhish\u2019s written permission. Provided as is.',
      url: 'https://openphish.com/faq.html',
      allowsInternalBusinessUse: true,
    },
  },
  TOR_EXITS: {
    name: 'TOR_EXITS',
    title: 'Tor Project bulk exit list',
    publisher: 'The Tor Project',
    urls: ['https://check.torproject.org/torbulkexitlist'],
    format: 'ip_lines',
    entityTypes: ['ip'],
    kind: 'harm',
    refreshMinutes: 120,
    minIntervalMinutes: 30,
    meaning: {
      label: 'Tor exit relay',
      description:
        'The address is a Tor exit relay: traffic from it is anonymised and may come from anyone using Tor, legitimate or not.',
      impact: 'Whoever used this address hid their real location behind the Tor network.',
      score: 40,
      category: 'network_exposure',
      attack: ['T1090.003'],
    },
    enabledByDefault: true,
    maxBytes: 8 * MB,
    terms: {
      summary: 'Public data published by the Tor Project for anyone to use.',
      url: 'https://check.torproject.org/torbulkexitlist',
      allowsInternalBusinessUse: true,
    },
  },
  CINS: {
    name: 'CINS',
    title: 'CINS Army list (Collective Intelligence Network Security)',
    publisher: 'Sentinel IPS (CINS)',
    urls: ['https://cinsscore.com/list/ci-badguys.txt'],
    format: 'ip_lines',
    entityTypes: ['ip'],
    kind: 'harm',
    refreshMinutes: 360,
    minIntervalMinutes: 60,
    meaning: {
      label: 'address with poor reputation',
      description:
        'The CINS Army list names addresses with a poor Rogue Packet score or repeated attacks seen by Sentinel IPS sensors.',
      impact: 'This address has recently attacked other networks.',
      score: 45,
      category: 'suspicious_infrastructure',
      attack: ['T1595'],
    },
    enabledByDefault: false,
    maxBytes: 8 * MB,
    terms: {
      summary:
        'Published for free download without written terms for business use; left disabled until the operator has confirmed the tenant may use it.',
      url: 'https://cinsscore.com/',
      allowsInternalBusinessUse: false,
    },
  },
  ET_COMPROMISED: {
    name: 'ET_COMPROMISED',
    title: 'Emerging Threats compromised IPs',
    publisher: 'Proofpoint Emerging Threats',
    urls: ['https://rules.emergingthreats.net/blockrules/compromised-ips.txt'],
    format: 'ip_lines',
    entityTypes: ['ip'],
    kind: 'harm',
    refreshMinutes: 1440,
    minIntervalMinutes: 60,
    meaning: {
      label: 'known compromised host',
      description: 'Emerging Threats lists hosts known to be compromised and used to attack others.',
      impact: 'This computer has been taken over by attackers and is used against others.',
      score: 60,
      category: 'suspicious_infrastructure',
      attack: ['T1584'],
    },
    enabledByDefault: true,
    maxBytes: 8 * MB,
    terms: {
      summary: 'Part of the free ET Open rule set, usable by anyone.',
      url: 'https://rules.emergingthreats.net/',
      allowsInternalBusinessUse: true,
    },
  },
  TRANCO: {
    name: 'TRANCO',
    title: 'Tranco top-1M popularity list',
    publisher: 'Tranco (KU Leuven, Stony Brook University, TU Delft, Université Grenoble Alpes)',
    urls: ['https://tranco-list.eu/top-1m.csv.zip'],
    format: 'tranco',
    entityTypes: ['domain'],
    kind: 'popularity',
    refreshMinutes: 1440,
    minIntervalMinutes: 720,
    meaning: {
      label: 'popular domain',
      description:
        'The domain is ranked in the Tranco top million, a research-grade popularity list aggregated over 30 days: evidence of an established, widely used site, never a verdict on its own.',
      impact: 'This is a widely used, well-established website.',
      score: 0,
      category: 'context',
      attack: [],
    },
    enabledByDefault: true,
    maxBytes: 64 * MB,
    terms: {
      summary: 'Free to use; the authors ask that research using it cite their NDSS 2019 paper.',
      url: 'https://tranco-list.eu/',
      attribution:
        'Le Pochat et al., "Tranco: A Research-Oriented Top Sites Ranking Hardened Against Manipulation", NDSS 2019.',
      allowsInternalBusinessUse: true,
    },
  },
};

/** SIS_FEED_<NAME> */
export function feedEnvPrefix(name: FeedName): `SIS_FEED_${FeedName}` {
  return `SIS_FEED_${name}`;
}

/** The distinct refresh periods (minutes); the scheduled refresh runs at the shortest. */
export function refreshPeriods(): number[] {
  return [...new Set(FEED_NAMES.map((name) => FEEDS[name].refreshMinutes))].sort((a, b) => a - b);
}
