import type { FeedName } from './names';

/**
 * Where each public feed comes from and on what terms (docs/feeds.md): read by the refresh, the
 * admin list, the CDK settings and the docs, never by the run-tool step (declarations.ts holds what
 * matching needs).
 */

/** The documented formats the parsers read (parsers.ts). */
export type FeedFormat =
  | 'spamhaus_drop'
  | 'feodo'
  | 'urlhaus_csv'
  | 'threatfox'
  | 'url_lines'
  | 'ip_lines'
  | 'tranco';

export interface FeedTerms {
  /** One line: who may use the data and how. */
  summary: string;
  url: string;
  /** The attribution the publisher asks for, when it asks for one. */
  attribution?: string;
  /** Whether the terms allow a business's internal security use, which decides the default. */
  allowsInternalBusinessUse: boolean;
}

export interface FeedSource {
  publisher: string;
  /** Default source URLs (SIS_FEED_<NAME>_URL replaces them; several are separated by spaces). */
  urls: readonly string[];
  format: FeedFormat;
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

/** abuse.ch's terms for the exports that need its free Auth-Key (URLhaus, ThreatFox). */
const ABUSE_CH_KEYED_TERMS = {
  summary:
    'abuse.ch community data, free under its fair-use terms with a free Auth-Key; commercial or for-profit use may require an abuse.ch commercial subscription.',
  url: 'https://abuse.ch/terms-of-use/',
  allowsInternalBusinessUse: true,
} as const;

export const FEED_SOURCES: Readonly<Record<FeedName, FeedSource>> = {
  SPAMHAUS_DROP: {
    publisher: 'The Spamhaus Project',
    urls: ['https://www.spamhaus.org/drop/drop_v4.json', 'https://www.spamhaus.org/drop/drop_v6.json'],
    format: 'spamhaus_drop',
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
    publisher: 'abuse.ch',
    urls: ['https://feodotracker.abuse.ch/downloads/ipblocklist.json'],
    format: 'feodo',
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
    publisher: 'abuse.ch',
    urls: ['https://urlhaus-api.abuse.ch/files/exports/recent.csv'],
    format: 'urlhaus_csv',
    key: { connector: 'urlhaus', required: true },
    enabledByDefault: false,
    maxBytes: 64 * MB,
    terms: ABUSE_CH_KEYED_TERMS,
  },
  THREATFOX: {
    publisher: 'abuse.ch',
    urls: ['https://threatfox-api.abuse.ch/files/exports/recent.csv'],
    format: 'threatfox',
    key: { connector: 'threatfox', required: true },
    enabledByDefault: false,
    maxBytes: 64 * MB,
    terms: ABUSE_CH_KEYED_TERMS,
  },
  OPENPHISH: {
    publisher: 'OpenPhish',
    urls: ['https://openphish.com/feed.txt'],
    format: 'url_lines',
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
    publisher: 'The Tor Project',
    urls: ['https://check.torproject.org/torbulkexitlist'],
    format: 'ip_lines',
    enabledByDefault: true,
    maxBytes: 8 * MB,
    terms: {
      summary: 'Public data published by the Tor Project for anyone to use.',
      url: 'https://check.torproject.org/torbulkexitlist',
      allowsInternalBusinessUse: true,
    },
  },
  CINS: {
    publisher: 'Sentinel IPS (CINS)',
    urls: ['https://cinsscore.com/list/ci-badguys.txt'],
    format: 'ip_lines',
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
    publisher: 'Proofpoint Emerging Threats',
    urls: ['https://rules.emergingthreats.net/blockrules/compromised-ips.txt'],
    format: 'ip_lines',
    enabledByDefault: true,
    maxBytes: 8 * MB,
    terms: {
      summary: 'Part of the free ET Open rule set, usable by anyone.',
      url: 'https://rules.emergingthreats.net/',
      allowsInternalBusinessUse: true,
    },
  },
  TRANCO: {
    publisher: 'Tranco (KU Leuven, Stony Brook University, TU Delft, Université Grenoble Alpes)',
    urls: ['https://tranco-list.eu/top-1m.csv.zip'],
    format: 'tranco',
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

/**
 * Whether the abuse.ch Auth-Key may go with a request to `url`: only over https to one of the
 * publisher's own hosts (those of its default URLs). A mirror the operator names gets no key (and
 * needs none); plain http would show the key to every hop.
 */
export function keyMayGoTo(source: FeedSource, url: string): boolean {
  try {
    const target = new URL(url);
    return target.protocol === 'https:' && source.urls.some((own) => new URL(own).host === target.host);
  } catch {
    return false;
  }
}
