import type { AttackTechniqueId } from '../core/attack';
import type { FindingCategory } from '../core/vocabulary';
import { FEED_NAMES, type FeedName } from './names';

/**
 * The public threat feeds (docs/feeds.md): one declaration per feed, from which the configuration
 * (SIS_FEED_<NAME>_URL / _ENABLED), the CDK settings and schedules, the refresh service, the admin
 * list and the `feeds` investigation tool are all derived. What matching needs is here; where a
 * feed comes from (URLs, format, key, size cap, terms, default) is in sources.ts beside it, which
 * the run-tool step does not carry. Each feed is downloaded in bulk by a
 * scheduled refresh and matched inside the tenant: an investigation never sends anything to a feed.
 */

export { FEED_NAMES, type FeedName, feedEnvPrefix, isFeedName } from './names';

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

export interface FeedDeclaration {
  name: FeedName;
  title: string;
  /** The entity types a match can concern. */
  entityTypes: readonly ('ip' | 'domain')[];
  /** `harm`: listed means evidence of harm; `popularity`: positive evidence of benignness. */
  kind: 'harm' | 'popularity';
  /** How often the scheduled refresh downloads it; older than three periods is stale. */
  refreshMinutes: number;
  /** The publisher's minimum interval between downloads; a scheduled refresh never goes below it. */
  minIntervalMinutes: number;
  meaning: FeedMeaning;
}

export const FEEDS: Readonly<Record<FeedName, FeedDeclaration>> = {
  SPAMHAUS_DROP: {
    name: 'SPAMHAUS_DROP',
    title: 'Spamhaus DROP (Do not Route Or Peer)',
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
  },
  FEODO: {
    name: 'FEODO',
    title: 'abuse.ch Feodo Tracker botnet C2 IP blocklist',
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
  },
  URLHAUS: {
    name: 'URLHAUS',
    title: 'abuse.ch URLhaus malware URLs (recent)',
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
  },
  THREATFOX: {
    name: 'THREATFOX',
    title: 'abuse.ch ThreatFox IOCs (recent)',
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
  },
  OPENPHISH: {
    name: 'OPENPHISH',
    title: 'OpenPhish community feed',
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
  },
  TOR_EXITS: {
    name: 'TOR_EXITS',
    title: 'Tor Project bulk exit list',
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
  },
  CINS: {
    name: 'CINS',
    title: 'CINS Army list (Collective Intelligence Network Security)',
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
  },
  ET_COMPROMISED: {
    name: 'ET_COMPROMISED',
    title: 'Emerging Threats compromised IPs',
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
  },
  TRANCO: {
    name: 'TRANCO',
    title: 'Tranco top-1M popularity list',
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
  },
};

/** The distinct refresh periods (minutes); the scheduled refresh runs at the shortest. */
export function refreshPeriods(): number[] {
  return [...new Set(FEED_NAMES.map((name) => FEEDS[name].refreshMinutes))].sort((a, b) => a - b);
}
