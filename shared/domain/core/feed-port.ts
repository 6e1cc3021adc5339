/**
 * The public feeds as the `feeds` tool sees them (shared/domain/feeds compiles them; the run-tool
 * step loads them, shared/services/feeds/feed-sets.ts): part of the vocabulary (vocabulary/index.ts
 * re-exports it), in its own file to keep that one readable.
 */
/**
 * How a feed lists an indicator: `address` one IP, `cidr` a network, `domain` a domain the feed names
 * itself (it and its subdomains are covered), `url_host` the host of a listed URL (only that host).
 */
export type IndicatorVia = 'address' | 'cidr' | 'domain' | 'url_host';

/** What a feed says about one indicator, all optional (plain lists say nothing). */
export interface IndicatorDetails {
  /** ISO 8601 (UTC). */
  first_seen?: string;
  last_seen?: string;
  /** The publisher's threat type or status (`botnet_cc`, `malware_download`, `online`...). */
  threat?: string;
  malware?: string;
  tags?: string[];
  port?: number;
  /** The publisher's own identifier of the entry (SBL number, ThreatFox IOC id, URLhaus id). */
  reference?: string;
  confidence?: number;
  /** URLs listed on the host (url_host indicators). */
  urls?: number;
}

/** The details shared by indicators, stored once (`via` says how the indicator was listed). */
export type IndicatorMeta = IndicatorDetails & { via: IndicatorVia };

export interface FeedMatch {
  /** The listed value: an address, a network or a host name. */
  listed: string;
  meta: IndicatorMeta;
  /** Popularity rank (TRANCO). */
  rank?: number;
}

/** A compiled feed set loaded in memory (shared/domain/feeds/compiled-set.ts). */
export interface FeedIndex {
  /** Entries whose address or network contains `ip` (at most `limit`). */
  matchIp(ip: string, limit?: number): FeedMatch[];
  /** The entry listing exactly this host name. */
  matchHost(host: string): FeedMatch | undefined;
}

export interface LoadedFeed {
  /** A feed name of shared/domain/feeds/declarations.ts. */
  name: string;
  set: FeedIndex;
  /** When the set was last confirmed current (a good download or a 304). */
  last_refreshed_at?: string;
}

export interface LoadedFeeds {
  feeds: readonly LoadedFeed[];
  /** Enabled feeds without a usable compiled set (never refreshed, or unreadable). */
  unavailable: readonly string[];
}

/**
 * The compiled sets of the deployment's enabled feeds, loaded once per container from the store the
 * refresh writes (shared/services/feeds/feed-sets.ts). Never a request to a feed's URL.
 */
export interface FeedsPort {
  load(): Promise<LoadedFeeds>;
}
