import type { FeedsPort, LoadedFeed, LoadedFeeds } from '../../domain/core/vocabulary';
import { type FeedSet, loadFeedSet } from '../../domain/feeds/compiled-set';
import type { FeedName } from '../../domain/feeds/declarations';
import type { FeedState } from '../../domain/feeds/status';
import { logger } from '../../observability';
import type { FeedObjectReader } from '../../store/feeds/feed-objects';
import type { FeedStateRepository } from '../../store/feeds/feed-state-repository';

/**
 * The `feeds` tool's view of the compiled sets, kept per container: the feeds' states are read at
 * most once a minute (one Query), and a set is fetched and decoded only when its version changed.
 * A warm match is then a few binary searches in memory. Reading the tenant's own store is the only
 * I/O: no feed URL is ever requested here.
 */
export const STATE_CHECK_MS = 60_000;

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
    const feeds: LoadedFeed[] = [];
    const unavailable: FeedName[] = [];
    await Promise.all(
      this.deps.enabled.map(async (name) => {
        const state = states[name];
        const set = state.version ? await this.setOf(name, state.version) : undefined;
        if (set) {
          feeds.push({
            name,
            set,
            ...(state.last_refreshed_at ? { last_refreshed_at: state.last_refreshed_at } : {}),
          });
        } else unavailable.push(name);
      }),
    );
    const order = (name: string) => this.deps.enabled.indexOf(name as FeedName);
    feeds.sort((a, b) => order(a.name) - order(b.name));
    unavailable.sort((a, b) => order(a) - order(b));
    const value = { feeds, unavailable };
    this.current = { at: this.now(), value };
    return value;
  }

  private async setOf(name: FeedName, version: string): Promise<FeedSet | undefined> {
    const known = this.sets.get(name);
    if (known?.version === version) return known.set;
    try {
      const stored = await this.deps.objects?.get(name);
      if (!stored) return known?.set;
      const set = loadFeedSet(stored);
      this.sets.set(name, { version, set });
      return set;
    } catch (error) {
      logger.warn('feed set unreadable; the previous one stays in use', {
        feed: name,
        error: error as Error,
      });
      return known?.set;
    }
  }
}
