import type { Config } from '../../config';
import { acceptParsedFeed, FeedContentError } from '../../domain/feeds/acceptance';
import { compileFeedSet } from '../../domain/feeds/compiled-set';
import { FEEDS, type FeedName } from '../../domain/feeds/declarations';
import type { ParsedFeed } from '../../domain/feeds/indicators';
import { parseFeed } from '../../domain/feeds/parsers';
import { FEED_SOURCES, type FeedSource, keyMayGoTo } from '../../domain/feeds/sources';
import type { FeedState } from '../../domain/feeds/status';
import { logger } from '../../observability';
import { downloadFeed, FeedDownloadError, type Validators } from '../../platform/feeds/feed-download';
import { type FeedObjectStore, feedObjectKey, storedObjectKey } from '../../store/feeds/feed-objects';
import type { FeedStateRepository } from '../../store/feeds/feed-state-repository';
import type { FeedSetting } from './feed-settings';

/**
 * Refreshes feeds: download (conditional, capped, timed), parse, compile, store the compiled set
 * under its own version's key, then record the state naming it. Any failure (download, cap, time, a
 * file with no valid indicator, the store) records `error` with its reason and leaves the last good
 * set and count untouched: a refresh is never half-applied. One feed's failure never stops the
 * others. After the state write, the set it replaced is deleted; a refresh whose state write lost to
 * a newer set deletes its own (a failed delete is logged and leaves an unread object, never fails the
 * refresh).
 */

export interface RefreshDeps {
  states: FeedStateRepository;
  objects: FeedObjectStore | undefined;
  settings: Record<FeedName, FeedSetting>;
  cfg: Pick<Config, 'SIS_FEED_TIMEOUT_SECONDS' | 'SIS_FEED_MAX_BYTES'>;
  /** The abuse.ch Auth-Key of an intelligence connector (env or the tenant's secret), if any. */
  keyFor: (connector: 'urlhaus' | 'threatfox') => Promise<string | undefined>;
  now?: () => Date;
  fetchImpl?: typeof fetch;
}

export interface RefreshOptions {
  /** A manual refresh always downloads; a scheduled one honours the publisher's minimum interval. */
  force: boolean;
  /** Caps each download below the configured limit (the API route answers within 29 s). */
  timeoutMs?: number;
}

/** Feeds refreshed at once: the downloads overlap, the parsing (CPU) does not pile up. */
const CONCURRENCY = 3;

class RefreshFailure extends Error {}

/** Failures whose message is safe to show and expected: recorded as the feed's error, logged as a warning. */
const isKnownFailure = (error: unknown): error is Error =>
  error instanceof FeedDownloadError || error instanceof RefreshFailure || error instanceof FeedContentError;

function withKey(source: FeedSource, url: string, key: string | undefined): string {
  if (!key || !keyMayGoTo(source, url)) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('auth-key', key);
  return parsed.toString();
}

function mergeParsed(parts: ParsedFeed[]): ParsedFeed {
  const out: ParsedFeed = { indicators: [], rejected: 0, skipped: 0 };
  for (const part of parts) {
    for (const indicator of part.indicators) out.indicators.push(indicator);
    out.rejected += part.rejected;
    out.skipped += part.skipped;
    if (part.generated_at && (!out.generated_at || part.generated_at > out.generated_at))
      out.generated_at = part.generated_at;
    out.notice ??= part.notice;
  }
  return out;
}

export class FeedRefresher {
  private readonly now: () => Date;

  constructor(private readonly deps: RefreshDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Refreshes the named enabled feeds (a disabled one is never fetched); returns every feed's state. */
  async refresh(names: readonly FeedName[], options: RefreshOptions): Promise<Record<FeedName, FeedState>> {
    const states = await this.deps.states.all();
    const queue = names.filter((name) => this.deps.settings[name].enabled);
    const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let name = queue.shift(); name; name = queue.shift()) {
        states[name] = await this.refreshOne(states[name], options);
      }
    });
    await Promise.all(workers);
    return states;
  }

  private async refreshOne(previous: FeedState, options: RefreshOptions): Promise<FeedState> {
    const feed = FEEDS[previous.name];
    const at = this.now();
    if (!options.force && previous.last_attempt_at) {
      const since = at.getTime() - Date.parse(previous.last_attempt_at);
      if (since < feed.minIntervalMinutes * 60_000) return previous;
    }
    let next: FeedState;
    try {
      next = await this.download(previous, options, at);
    } catch (error) {
      const reason = isKnownFailure(error) ? error.message : 'the refresh failed unexpectedly';
      if (!isKnownFailure(error)) {
        logger.error('feed refresh failed', { feed: previous.name, error: error as Error });
      } else logger.warn('feed refresh failed', { feed: previous.name, reason });
      next = {
        ...previous,
        last_attempt_at: at.toISOString(),
        outcome: 'error',
        error: reason.slice(0, 500),
      };
    }
    await this.record(previous, next);
    return next;
  }

  /** Saves the state, then deletes whichever compiled set no state names any more. */
  private async record(previous: FeedState, next: FeedState): Promise<void> {
    const key = storedObjectKey(next);
    const stored = key !== undefined && key !== storedObjectKey(previous) ? key : undefined;
    let saved: Awaited<ReturnType<FeedStateRepository['save']>>;
    try {
      saved = await this.deps.states.save(next);
    } catch (error) {
      if (stored) await this.discard(next.name, stored);
      throw error;
    }
    if (!saved.written) {
      // A newer set's state is recorded: this refresh's set is never read.
      if (stored) await this.discard(next.name, stored);
      return;
    }
    const replaced = storedObjectKey(saved.replaced);
    if (replaced && replaced !== key) await this.discard(next.name, replaced);
  }

  private async discard(feed: FeedName, key: string): Promise<void> {
    try {
      await this.deps.objects?.delete(key);
    } catch (error) {
      logger.warn('an unused feed set could not be deleted', { feed, key, error: error as Error });
    }
  }

  private async download(previous: FeedState, options: RefreshOptions, at: Date): Promise<FeedState> {
    const feed = FEED_SOURCES[previous.name];
    const { objects, settings, cfg } = this.deps;
    if (!objects)
      throw new RefreshFailure(
        'no store for compiled feeds is configured (SIS_FEEDS_BUCKET or SIS_FEEDS_DIR)',
      );
    const urls = settings[previous.name].urls;
    const toPublisher = urls.some((url) => keyMayGoTo(feed, url));
    const key = feed.key && toPublisher ? await this.deps.keyFor(feed.key.connector) : undefined;
    if (feed.key?.required && toPublisher && !key) {
      const env = `SIS_INTEL_${feed.key.connector.toUpperCase()}_API_KEY`;
      throw new RefreshFailure(
        `${previous.name} needs the free abuse.ch Auth-Key: set ${env} (or ${feed.key.connector.toUpperCase()} in the intel secret)`,
      );
    }
    const timeoutMs = Math.min(
      cfg.SIS_FEED_TIMEOUT_SECONDS * 1000,
      options.timeoutMs ?? Number.POSITIVE_INFINITY,
    );
    const maxBytes = cfg.SIS_FEED_MAX_BYTES ?? feed.maxBytes;
    // Conditional requests only when a good copy is stored and this is not a manual refresh.
    const conditional = !options.force && previous.version !== undefined && previous.outcome !== 'error';
    const fetchOne = (url: string, validators?: Validators) =>
      downloadFeed({
        url: withKey(feed, url, key),
        maxBytes,
        timeoutMs,
        ...(validators ? { validators } : {}),
        ...(this.deps.fetchImpl ? { fetchImpl: this.deps.fetchImpl } : {}),
      });
    const results = await Promise.all(
      urls.map((url) => fetchOne(url, conditional ? previous.validators?.[url] : undefined)),
    );
    if (results.every((r) => r.status === 'not_modified')) {
      return refreshedState(previous, at);
    }
    // A source of several that did not change is fetched again in full: the set is compiled whole.
    const bodies: Uint8Array[] = [];
    const validators: Record<string, Validators> = {};
    for (const [i, url] of urls.entries()) {
      const result = results[i]!.status === 'ok' ? results[i]! : await fetchOne(url);
      if (result.status !== 'ok') throw new RefreshFailure(`${url} answered 304 to an unconditional request`);
      bodies.push(result.body);
      validators[url] = result.validators;
    }
    let parsed: ParsedFeed;
    try {
      parsed = mergeParsed(bodies.map((body) => parseFeed(feed.format, body, maxBytes)));
    } catch (error) {
      if (error instanceof FeedContentError) throw error;
      throw new RefreshFailure('the download could not be parsed in the feed\u2019s documented format');
    }
    acceptParsedFeed(
      parsed,
      bodies.reduce((n, b) => n + b.byteLength, 0),
      previous.indicator_count,
    );
    const compiled = compileFeedSet(previous.name, parsed, at);
    const version = at.toISOString();
    const objectKey = feedObjectKey(previous.name, version);
    try {
      await objects.put(objectKey, compiled.body);
    } catch (error) {
      logger.error('feed set not stored', { feed: previous.name, error: error as Error });
      throw new RefreshFailure('the compiled set could not be stored');
    }
    return {
      ...refreshedState(previous, at),
      indicator_count: compiled.count,
      rejected: parsed.rejected,
      validators,
      version,
      object_key: objectKey,
      ...(parsed.generated_at ? { source_generated_at: parsed.generated_at } : {}),
    };
  }
}

/** A refresh that succeeded at `at` (the source unchanged, or a new set stored): the last error cleared. */
function refreshedState(previous: FeedState, at: Date): FeedState {
  const { error: _cleared, ...rest } = previous;
  return { ...rest, last_refreshed_at: at.toISOString(), last_attempt_at: at.toISOString(), outcome: 'ok' };
}
