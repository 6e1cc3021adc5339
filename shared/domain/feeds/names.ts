/**
 * The public feeds' names (docs/feeds.md): what the configuration (SIS_FEED_<NAME>_*) and every
 * function's cold start need, without the feeds' declarations (declarations.ts, sources.ts).
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

/** SIS_FEED_<NAME> */
export function feedEnvPrefix(name: FeedName): `SIS_FEED_${FeedName}` {
  return `SIS_FEED_${name}`;
}

/** How an operator turns a feed on (docs/feeds.md): shown by Admin > Feeds, the CLI and a report's coverage. */
export function howToEnableFeed(name: FeedName): string {
  return `Set ${feedEnvPrefix(name)}_ENABLED=true locally (SIS_PUBLIC_SOURCES=on turns on every keyless feed the stack enables by default), or name ${name} in -c feeds on AWS.`;
}
