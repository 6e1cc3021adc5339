import type { AttackTechniqueId } from '../../core/attack';
import type { Entity } from '../../core/entity';
import { isPublicSuffix, parseHostname } from '../../core/public-suffix';
import type {
  Facts,
  FeedMatch,
  Finding,
  JsonValue,
  LoadedFeed,
  Tool,
  ToolOutput,
  ToolRunContext,
} from '../../core/vocabulary';
import { FEEDS, type FeedDeclaration, type FeedName, isFeedName } from '../../feeds/declarations';
import { isStale } from '../../feeds/status';
import { makeFinding } from '../scoring';
import { builtInTool } from './built-in-tool-declarations';
import { domainAndParents } from './enrichment';

/**
 * feeds: the investigated IP or domain against the public feeds compiled inside the tenant
 * (docs/feeds.md). An IP is matched against listed addresses and networks; a domain exactly against
 * listed hosts (the hosts of listed URLs), and with its parents against listed domains (a listed
 * domain covers its subdomains). One finding per feed that lists it, naming the feed, what a listing
 * means, first/last seen and ATT&CK; TRANCO's popularity rank is benign evidence with score 0.
 * Nothing is sent anywhere: the sets are read from the tenant's own store.
 */

/** A URL host in the Tranco top this many is probably shared hosting: its URL listing weighs half. */
export const POPULAR_HOST_RANK = 10_000;
/** A listed parent domain (not the name itself) weighs this much of an exact listing. */
export const PARENT_MATCH_FACTOR = 0.6;

type NamedFeed = LoadedFeed & { name: FeedName };

interface Hit {
  match: FeedMatch;
  /** The investigated name or the parent that is listed. */
  on: string;
  parent: boolean;
}

function threatFoxMeaning(threat: string | undefined): {
  score: number;
  label: string;
  attack: AttackTechniqueId[];
} {
  switch (threat) {
    case 'botnet_cc':
      return { score: 80, label: 'botnet command-and-control server', attack: ['T1071'] };
    case 'payload_delivery':
      return { score: 70, label: 'malware payload delivery host', attack: ['T1105'] };
    default:
      return { score: 60, label: 'indicator of compromise', attack: [...FEEDS.THREATFOX.meaning.attack] };
  }
}

function describeHit(hit: Hit): string {
  const { meta } = hit.match;
  const parts = [
    `${hit.match.listed}${hit.parent ? ` (parent of the investigated name)` : ''}`,
    meta.via === 'url_host' ? `${meta.urls ?? 1} listed URL(s) on this host` : undefined,
    meta.threat ? `threat ${meta.threat}` : undefined,
    meta.malware ? `malware ${meta.malware}` : undefined,
    meta.port ? `port ${meta.port}` : undefined,
    meta.first_seen ? `first seen ${meta.first_seen}` : undefined,
    meta.last_seen ? `last seen ${meta.last_seen}` : undefined,
    meta.confidence !== undefined ? `confidence ${meta.confidence}` : undefined,
    meta.tags?.length ? `tags ${meta.tags.join(', ')}` : undefined,
    meta.reference ? `ref ${meta.reference}` : undefined,
  ];
  return parts.filter(Boolean).join('; ');
}

function harmFinding(
  feed: FeedDeclaration,
  loaded: NamedFeed,
  hits: Hit[],
  stale: boolean,
  popularRank: number | undefined,
): Finding {
  const meta = hits[0]!.match.meta;
  const threatFox = feed.name === 'THREATFOX' ? threatFoxMeaning(meta.threat) : undefined;
  const label = threatFox?.label ?? feed.meaning.label;
  let score = threatFox?.score ?? feed.meaning.score;
  const notes: string[] = [];
  const exact = hits.some((h) => !h.parent);
  if (!exact) {
    score *= PARENT_MATCH_FACTOR;
    notes.push(`Only a parent domain (${hits[0]!.on}) is listed.`);
  }
  if (meta.confidence !== undefined && meta.confidence < 50) {
    score *= 0.7;
    notes.push(`The publisher's confidence is ${meta.confidence}%.`);
  }
  if (popularRank !== undefined && hits.every((h) => h.match.meta.via === 'url_host')) {
    score *= 0.5;
    notes.push(
      `The host is ranked ${popularRank} in the Tranco top list: a listed URL on a popular (often shared) host does not make the whole host malicious.`,
    );
  }
  if (stale) {
    notes.push(
      `The feed is stale: last refreshed ${loaded.last_refreshed_at ?? 'never'}, more than three refresh periods ago.`,
    );
  }
  const seen = [
    meta.first_seen ? `first seen ${meta.first_seen.slice(0, 10)}` : undefined,
    meta.last_seen ? `last seen ${meta.last_seen.slice(0, 10)}` : undefined,
  ].filter(Boolean);
  return makeFinding({
    tool: 'feeds',
    code: `listed_${feed.name.toLowerCase()}`,
    title: `Listed by ${feed.title}: ${label}${stale ? ' (stale feed)' : ''}`,
    description: [
      `${feed.meaning.description}`,
      `Listed: ${hits.map((h) => h.match.listed).join(', ')}${seen.length ? ` (${seen.join(', ')})` : ''}.`,
      ...notes,
    ].join(' '),
    impact: feed.meaning.impact,
    score: Math.round(score),
    category: feed.meaning.category,
    evidence: [`feed ${feed.name}`, ...hits.map(describeHit)],
    attack: threatFox?.attack ?? feed.meaning.attack,
    evidence_source: `feed:${feed.name}`,
  });
}

function popularityFinding(loaded: NamedFeed, hit: Hit, stale: boolean): Finding {
  const rank = hit.match.rank ?? 0;
  return makeFinding({
    tool: 'feeds',
    code: 'popular_tranco',
    title: `Popular domain: Tranco rank ${rank}${stale ? ' (stale feed)' : ''}`,
    description: `${hit.on} is ranked ${rank} in the Tranco top-1M list${
      hit.parent ? ` (as the registrable domain of the investigated name)` : ''
    }. ${FEEDS.TRANCO.meaning.description}${stale ? ` The list is stale: last refreshed ${loaded.last_refreshed_at ?? 'never'}.` : ''}`,
    impact: FEEDS.TRANCO.meaning.impact,
    score: 0,
    category: 'context',
    evidence: [`feed TRANCO`, `${hit.on} rank ${rank}`],
    benign: true,
    evidence_source: 'feed:TRANCO',
  });
}

function hitsFor(entity: Entity, loaded: LoadedFeed): Hit[] {
  if (entity.type === 'ip') {
    return loaded.set.matchIp(entity.value).map((match) => ({ match, on: entity.value, parent: false }));
  }
  const hits: Hit[] = [];
  const [name, ...parents] = domainAndParents(entity.value);
  if (loaded.name === 'TRANCO') {
    const exact = name ? loaded.set.matchHost(name) : undefined;
    if (exact) return [{ match: exact, on: entity.value, parent: false }];
    const registrable = parseHostname(entity.value, { allowPrivateDomains: true }).domain;
    const match = registrable && registrable !== name ? loaded.set.matchHost(registrable) : undefined;
    return match ? [{ match, on: registrable!, parent: true }] : [];
  }
  const exact = name ? loaded.set.matchHost(name) : undefined;
  if (exact) hits.push({ match: exact, on: name!, parent: false });
  // A public suffix (`github.io`, `co.uk`) is never a parent that speaks for the names under it.
  for (const parent of parents.filter((p) => !isPublicSuffix(p))) {
    const match = loaded.set.matchHost(parent);
    // The host of a listed URL covers only itself; a listed domain covers its subdomains.
    if (match && match.meta.via === 'domain') hits.push({ match, on: parent, parent: true });
  }
  return hits;
}

async function run(entity: Entity, ctx: ToolRunContext): Promise<ToolOutput> {
  if (!ctx.feeds) {
    return { facts: { feeds: 'unavailable' }, findings: [], related: [] };
  }
  const { feeds, unavailable } = await ctx.feeds.load();
  // Feeds this code knows (a set of an unknown name is ignored), in declaration order.
  const applicable = feeds
    .filter((f): f is NamedFeed => isFeedName(f.name))
    .filter((f) => FEEDS[f.name].entityTypes.includes(entity.type as 'ip' | 'domain'));
  const findings: Finding[] = [];
  const matches: JsonValue[] = [];
  const stale: FeedName[] = [];
  const tranco = applicable.find((f) => f.name === 'TRANCO');
  const trancoHits = tranco ? hitsFor(entity, tranco) : [];
  const popularRank = trancoHits.find((h) => !h.parent)?.match.rank;
  for (const loaded of applicable) {
    const feedStale = isStale({ name: loaded.name, last_refreshed_at: loaded.last_refreshed_at }, ctx.now);
    if (feedStale) stale.push(loaded.name);
    const hits = loaded.name === 'TRANCO' ? trancoHits : hitsFor(entity, loaded);
    if (hits.length === 0) continue;
    for (const hit of hits) {
      matches.push({
        feed: loaded.name,
        listed: hit.match.listed,
        via: hit.match.meta.via,
        ...(hit.match.rank ? { rank: hit.match.rank } : {}),
        ...(hit.match.meta.first_seen ? { first_seen: hit.match.meta.first_seen } : {}),
        ...(hit.match.meta.last_seen ? { last_seen: hit.match.meta.last_seen } : {}),
      });
    }
    const feed = FEEDS[loaded.name];
    findings.push(
      feed.kind === 'popularity'
        ? popularityFinding(loaded, hits[0]!, feedStale)
        : harmFinding(
            feed,
            loaded,
            hits,
            feedStale,
            popularRank !== undefined && popularRank <= POPULAR_HOST_RANK ? popularRank : undefined,
          ),
    );
  }
  const facts: Facts = {
    feeds_checked: applicable.map((f) => f.name),
    matches,
    ...(stale.length ? { stale_feeds: stale } : {}),
    ...(unavailable.length ? { unavailable_feeds: [...unavailable] } : {}),
  };
  const attributes = trancoHits[0]?.match.rank ? { tranco_rank: trancoHits[0].match.rank } : undefined;
  return { facts, findings, related: [], ...(attributes ? { attributes } : {}) };
}

export const feedsTool: Tool = { ...builtInTool('feeds'), run };
