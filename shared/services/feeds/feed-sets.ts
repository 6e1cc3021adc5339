import type { FeedsPort, LoadedFeed, LoadedFeeds } from '../../domain/core/vocabulary';
import { type FeedSet, loadFeedSet } from '../../domain/feeds/compiled-set';
import type { FeedName } from '../../domain/feeds/declarations';
import type { FeedState } from '../../domain/feeds/status';
import { logger } from '../../observability';
import { type FeedObjectReader, storedObjectKey } from '../../store/feeds/feed-objects';
import type { FeedStateRepository } from '../../store/feeds/feed-state-repository';

/**
 * The `feeds` tool's view of the compiled sets, kept per container: the feeds' states are read at
 * most once a minute (one Query), and a set is fetched and decoded only when its version changed.
 * A warm match is then a few binary searches in memory. Reading the tenant's own store is the only
 * I/O: no feed URL is ever requested here. The set read is the one the state names (its
 * `object_key`), so it is never older than the state says; a key deleted between the two reads (a
 * refresh replaced it meanwhile) sends the loader back to the state once.
 */
export const STATE_CHECK_MS = 60_000;

/** A state names a set whose object is gone: read the state again. */
const MISSING = Symbol('missing');

export interface FeedSetsDeps {
  states: Pick<FeedStateRepository, 'all'>;
  objects: FeedObjectReader | undefined;
  enabled: readonly FeedName[];
  now?: () => number;
}

export class FeedSets implements FeedsPort {
  private readonly sets = new Map<FeedName, { version: string; set: FeedSet }>();
  private current: { at: number; value: LoadedFeeds } | undefined;
  private loading: Promise<LoadedFeeds> | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: FeedSetsDeps) {
    this.now = deps.now ?? Date.now;
  }

  load(): Promise<LoadedFeeds> {
    if (this.current && this.now() - this.current.at < STATE_CHECK_MS)
      return Promise.resolve(this.current.value);
    this.loading ??= this.reload().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async reload(): Promise<LoadedFeeds> {
    let states: Record<FeedName, FeedState>;
    try {
      states = await this.deps.states.all();
    } catch (error) {
      // The last sets loaded stay usable while the state cannot be read.
      if (this.current) return this.current.value;
      throw error;
    }
    let found = await this.setsOf(states, this.deps.enabled);
    const moved = this.deps.enabled.filter((name) => found[name] === MISSING);
    if (moved.length) {
      const latest = await this.deps.states.all().catch(() => undefined);
      if (latest) {
        for (const name of moved) states[name] = latest[name];
        found = { ...found, ...(await this.setsOf(latest, moved)) };
      }
    }
    const feeds: LoadedFeed[] = [];
    const unavailable: FeedName[] = [];
    for (const name of this.deps.enabled) {
      const set = found[name];
      const state = states[name];
      if (set && set !== MISSING) {
        feeds.push({
          name,
          set,
          ...(state.last_refreshed_at ? { last_refreshed_at: state.last_refreshed_at } : {}),
        });
      } else unavailable.push(name);
    }
    const value = { feeds, unavailable };
    this.current = { at: this.now(), value };
    return value;
  }

  private async setsOf(
    states: Record<FeedName, FeedState>,
    names: readonly FeedName[],
  ): Promise<Partial<Record<FeedName, FeedSet | typeof MISSING | undefined>>> {
    const sets = await Promise.all(names.map((name) => this.setOf(states[name])));
    return Object.fromEntries(names.map((name, i) => [name, sets[i]]));
  }

  /** The set the state names; MISSING when its object is not there (and none is known). */
  private async setOf(state: FeedState): Promise<FeedSet | typeof MISSING | undefined> {
    const key = storedObjectKey(state);
    if (!state.version || !key) return undefined;
    const known = this.sets.get(state.name);
    if (known?.version === state.version) return known.set;
    try {
      const stored = await this.deps.objects?.get(key);
      if (!stored) return known?.set ?? (this.deps.objects ? MISSING : undefined);
      const set = loadFeedSet(stored);
      this.sets.set(state.name, { version: state.version, set });
      return set;
    } catch (error) {
      logger.warn('feed set unreadable; the previous one stays in use', {
        feed: state.name,
        error: error as Error,
      });
      return known?.set;
    }
  }
}
